/**
 * The facade's names for the endpoints, and how a method's positional arguments make the endpoint's
 * input (`orders.line(id, line)` is `getOrderLine` with `{ path: { id, line_id: line } }`). Endpoint
 * names and path and query values are checked against the API declaration; bodies are given as the
 * REST API takes them, JSON, and checked by the endpoint's schema when called (`Facade.ts`).
 */
import type { HttpApiEndpoint } from "@effect/platform"
import type {
  AdjustmentRequest,
  ApproveCountRequest,
  CarrierInput,
  ConfirmMoveRequest,
  ConfirmTaskRequest,
  CountQuery,
  ListWindow,
  LocationQuery,
  LocationUpdate,
  MoveAllRequest,
  MovementTaskQuery,
  NewClient,
  NewCountRequest,
  NewLocation,
  NewMoveRequest,
  NewOrder,
  NewOrderLine,
  NewPreAdvice,
  NewSite,
  NewSku,
  NewSkuGroup,
  NewUser,
  OrderLineUpdate,
  OrderUpdate,
  PartnerInput,
  PickFaceQuery,
  PickFaceSetting,
  PlanCountsRequest,
  PreAdviceChanges,
  PreAdviceLineChanges,
  PreAdviceLinesPayload,
  PreAdvicePage,
  PutawayRequest,
  ReceiptRequest,
  RecordCountRequest,
  ReplenishmentRunRequest,
  SiteSettingsUpdate,
  SkuGroupUpdate,
  SkuUpdate,
  TaskQuery,
  WaveDefinitionInput,
  WebhookInput
} from "@wms/core"
import type { Schema, Types } from "effect"
import type { Endpoint, EndpointName, GroupName } from "../Api.js"
import type { Input } from "../features/Table.js"

/** An endpoint's input as a method's arguments give it: path and query values as typed, the body as JSON. */
export type Given<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = Types.Simplify<
  { readonly [K in keyof Input<E>]: K extends "payload" ? unknown : Input<E>[K] }
>

/** A method of the facade: the endpoint it calls, and that endpoint's input from the method's arguments. */
export interface Call<G extends GroupName, E extends EndpointName<G>, Args extends ReadonlyArray<unknown>> {
  readonly group: G
  readonly endpoint: E
  readonly input: (...args: Args) => Given<Endpoint<G, E>>
}

const call = <const G extends GroupName, const E extends EndpointName<G>, Args extends ReadonlyArray<unknown>>(
  group: G,
  endpoint: E,
  input: (...args: Args) => Given<Endpoint<G, E>>
): Call<G, E, Args> => ({ group, endpoint, input })

/** `call` within one group. */
const of =
  <const G extends GroupName>(group: G) =>
  <const E extends EndpointName<G>, Args extends ReadonlyArray<unknown>>(
    endpoint: E,
    input: (...args: Args) => Given<Endpoint<G, E>>
  ) => call(group, endpoint, input)

// The bodies as the REST API takes them (JSON), before their schemas.
type Body<S extends Schema.Schema.Any> = Schema.Schema.Encoded<S>
type Partner = Body<typeof PartnerInput>
type Carrier = Body<typeof CarrierInput>
type Line = Body<typeof NewOrderLine>
type Definition = Body<typeof WaveDefinitionInput>
type Webhook = Body<typeof WebhookInput>

// The arguments most methods share.
const everything = () => ({ urlParams: {} })
const windowed = (window: ListWindow = {}) => ({ urlParams: window })
const byNumber = (id: number) => ({ path: { id } })
const byText = (id: string) => ({ path: { id } })
const byLine = (id: string, line: number) => ({ path: { id, line_id: line } })

const admin = of("admin")
const customers = of("customers")
const suppliers = of("suppliers")
const carriers = of("carriers")
const skus = of("skus")
const skuGroups = of("skugroups")
const orders = of("orders")
const preadvices = of("preadvices")
const inventory = of("inventory")
const locations = of("locations")
const movementTasks = of("movementTasks")
const counts = of("counts")
const pickFaces = of("pickFaces")
const replenishment = of("replenishment")
const byFace = (skuId: string, locId: string) => ({ path: { sku_id: skuId, loc_id: locId } })
const waveDefinitions = of("waveDefinitions")
const waves = of("waves")
const picking = of("picking")
const webhooks = of("webhooks")

/** The facade's names for the endpoints, and how a method's arguments make the endpoint's input. */
export const methods = {
  sites: {
    list: admin("listSites", everything),
    create: admin("createSite", (payload: Body<typeof NewSite>) => ({ payload })),
    /** The site's settings (`putaway_on_receipt`, `count_variance_threshold`). */
    settings: admin("getSiteSettings", byText),
    /** Changes the settings present, keeps the others. */
    updateSettings: admin(
      "updateSiteSettings",
      (id: string, payload: Body<typeof SiteSettingsUpdate>) => ({ ...byText(id), payload })
    )
  },
  clients: {
    list: admin("listClients", everything),
    create: admin("createClient", (payload: Body<typeof NewClient>) => ({ payload }))
  },
  users: {
    list: admin("listUsers", everything),
    create: admin("createUser", (payload: Body<typeof NewUser>) => ({ payload }))
  },
  customers: {
    list: customers("listCustomers", windowed),
    get: customers("getCustomer", byNumber),
    /** Resolves to the new record's id. */
    create: customers("createCustomer", (payload: Partner) => ({ payload })),
    update: customers("updateCustomer", (id: number, payload: Partner) => ({ ...byNumber(id), payload })),
    remove: customers("deleteCustomer", byNumber)
  },
  suppliers: {
    list: suppliers("listSuppliers", windowed),
    get: suppliers("getSupplier", byNumber),
    /** Resolves to the new record's id. */
    create: suppliers("createSupplier", (payload: Partner) => ({ payload })),
    update: suppliers("updateSupplier", (id: number, payload: Partner) => ({ ...byNumber(id), payload })),
    remove: suppliers("deleteSupplier", byNumber)
  },
  carriers: {
    list: carriers("listCarriers", windowed),
    get: carriers("getCarrier", byNumber),
    /** Resolves to the new carrier's id. */
    create: carriers("createCarrier", (payload: Carrier) => ({ payload })),
    update: carriers("updateCarrier", (id: number, payload: Carrier) => ({ ...byNumber(id), payload })),
    remove: carriers("deleteCarrier", byNumber)
  },
  skus: {
    list: skus("listSkus", windowed),
    get: skus("getSku", byText),
    create: skus("createSku", (payload: Body<typeof NewSku>) => ({ payload })),
    /** Updates the SKU, or creates it when it does not exist yet (`PUT /skus/:id`). */
    upsert: skus("updateSku", (id: string, payload: Body<typeof SkuUpdate>) => ({ ...byText(id), payload }))
  },
  skuGroups: {
    list: skuGroups("listSkuGroups", windowed),
    get: skuGroups("getSkuGroup", byText),
    /** Resolves to the generated `sku_group_id`. */
    create: skuGroups("createSkuGroup", (payload: Body<typeof NewSkuGroup>) => ({ payload })),
    update: skuGroups(
      "updateSkuGroup",
      (id: string, payload: Body<typeof SkuGroupUpdate>) => ({ ...byText(id), payload })
    ),
    remove: skuGroups("deleteSkuGroup", byText)
  },
  pickMethods: {
    list: call("pickmethods", "listPickMethods", windowed)
  },
  orders: {
    /** The scope's orders; `{ lines: false }` leaves the lines out. */
    list: orders("listOrders", (options: { readonly lines?: boolean } = {}) => ({
      urlParams: options.lines === false ? { lines: "false" } : {}
    })),
    get: orders("getOrder", byText),
    create: orders("createOrder", (payload: Body<typeof NewOrder>) => ({ payload })),
    update: orders("updateOrder", (id: string, payload: Body<typeof OrderUpdate>) => ({ ...byText(id), payload })),
    remove: orders("deleteOrder", byText),
    lines: orders("listOrderLines", (id: string) => ({ ...byText(id), ...everything() })),
    line: orders("getOrderLine", byLine),
    /** Adds one line or an array of lines; a line without `line` gets the next number. */
    addLines: orders(
      "addOrderLines",
      (id: string, payload: Line | ReadonlyArray<Line>) => ({ ...byText(id), payload })
    ),
    updateLine: orders(
      "updateOrderLine",
      (id: string, line: number, payload: Body<typeof OrderLineUpdate>) => ({ ...byLine(id, line), payload })
    ),
    removeLine: orders("deleteOrderLine", byLine),
    /** Ships what was picked of the order (`POST /orders/:id/ship`). */
    ship: picking("ship", byText)
  },
  preadvices: {
    list: preadvices("listPreAdvices", (page: PreAdvicePage = {}) => ({ urlParams: page })),
    get: preadvices("getPreAdvice", byText),
    create: preadvices("createPreAdvice", (payload: Body<typeof NewPreAdvice>) => ({ payload })),
    update: preadvices(
      "updatePreAdvice",
      (id: string, payload: Body<typeof PreAdviceChanges>) => ({ ...byText(id), payload })
    ),
    remove: preadvices("deletePreAdvice", byText),
    lines: preadvices(
      "listPreAdviceLines",
      (id: string, page: PreAdvicePage = {}) => ({ ...byText(id), urlParams: page })
    ),
    line: preadvices("getPreAdviceLine", byLine),
    /** Adds one line or an array of lines. */
    addLines: preadvices(
      "addPreAdviceLines",
      (id: string, payload: Body<typeof PreAdviceLinesPayload>) => ({ ...byText(id), payload })
    ),
    updateLine: preadvices(
      "updatePreAdviceLine",
      (id: string, line: number, payload: Body<typeof PreAdviceLineChanges>) => ({ ...byLine(id, line), payload })
    ),
    removeLine: preadvices("deletePreAdviceLine", byLine),
    /**
     * Receives the given lines, or without `lines` everything still expected, into stock. With
     * putaway (`putaway: true`, or the site's `putaway_on_receipt`) resolves to `{tasks, unplaced}`;
     * without, to nothing.
     */
    receive: call(
      "receiving",
      "receive",
      (id: string, payload: Body<typeof ReceiptRequest> = {}) => ({ ...byText(id), payload })
    )
  },
  inventory: {
    overview: inventory("overview", everything),
    content: inventory("content", byNumber),
    transactions: inventory("transactions", everything),
    transaction: inventory("transaction", byNumber),
    lostAndFound: inventory("lostAndFound", everything),
    lostAndFoundItem: inventory("lostAndFoundItem", byNumber),
    /** A stock adjustment: `{content_id, qty}` or `{sku_id, loc_id, tag_id?, expiry_date?, qty}`. */
    adjust: inventory("adjust", (payload: Body<typeof AdjustmentRequest>) => ({ payload }))
  },
  locations: {
    /** The site's locations with their occupancy; optional filters `zone`, `loc_type`, `status`. */
    list: locations("listLocations", (query: LocationQuery = {}) => ({ urlParams: query })),
    get: locations("getLocation", byText),
    /** Resolves to the new location's record. */
    create: locations("createLocation", (payload: Body<typeof NewLocation>) => ({ payload })),
    /** Replaces every writable field (`PUT /locations/:id`): status changes go through here. */
    replace: locations(
      "updateLocation",
      (id: string, payload: Body<typeof LocationUpdate>) => ({ ...byText(id), payload })
    ),
    remove: locations("deleteLocation", byText),
    /** A Move task per content at the location with stock available; resolves to the tasks. */
    moveAll: locations(
      "moveAll",
      (id: string, payload: Body<typeof MoveAllRequest>) => ({ ...byText(id), payload })
    )
  },
  movementTasks: {
    /** The scope's Open movement tasks, or those of `status_id`, with optional filters. */
    list: movementTasks("listMovementTasks", (query: MovementTaskQuery = {}) => ({ urlParams: query })),
    get: movementTasks("getMovementTask", byNumber),
    /** A Move task: `{content_id, qty, to_loc_id}` or `{sku_id, from_loc_id, tag_id?, qty, to_loc_id}`; resolves to it. */
    create: movementTasks("createMovementTask", (payload: Body<typeof NewMoveRequest>) => ({ payload })),
    /** Carries the task's stock, or `{ qty }` of it, to its destination or `{ to_loc_id }`. */
    confirm: movementTasks(
      "confirmMovementTask",
      (id: number, payload: Body<typeof ConfirmMoveRequest> = {}) => ({ ...byNumber(id), payload })
    ),
    cancel: movementTasks("cancelMovementTask", byNumber),
    /** Putaway tasks for a content at a receiving location; resolves to the tasks made. */
    putaway: movementTasks("createPutawayTasks", (payload: Body<typeof PutawayRequest>) => ({ payload }))
  },
  counts: {
    /** The site's counts, every status unless `status` says; optional filters `loc_id`, `zone`. */
    list: counts("listCounts", (query: CountQuery = {}) => ({ urlParams: query })),
    get: counts("getCount", byNumber),
    /** An Open count of a managed location (`{loc_id, sku_id?, blind?, assignee?, reason?}`); resolves to it. */
    create: counts("createCount", (payload: Body<typeof NewCountRequest>) => ({ payload })),
    /** Open counts of the locations counted longest ago (`{zone?, loc_type?, max?}`); resolves to them. */
    plan: counts("planCounts", (payload: Body<typeof PlanCountsRequest> = {}) => ({ payload })),
    /** Freezes the location and snapshots what it holds. */
    release: counts("releaseCount", byNumber),
    /** Records counted lines; applies the count when every line is within the threshold. */
    record: counts(
      "recordCount",
      (id: number, payload: Body<typeof RecordCountRequest>) => ({ ...byNumber(id), payload })
    ),
    /** Applies a Pending Approval count with `{reason_code}` (admins). */
    approve: counts(
      "approveCount",
      (id: number, payload: Body<typeof ApproveCountRequest>) => ({ ...byNumber(id), payload })
    ),
    recount: counts("recountCount", byNumber),
    cancel: counts("cancelCount", byNumber)
  },
  pickFaces: {
    /** The pick-face settings with each face's stock; optional filters `sku_id`, `loc_id`. */
    list: pickFaces("listPickFaces", (query: PickFaceQuery = {}) => ({ urlParams: query })),
    get: pickFaces("getPickFace", byFace),
    /** Upserts `{min_qty, max_qty, replenish_multiple?}` of the SKU at the PickFace location. */
    put: pickFaces(
      "putPickFace",
      (skuId: string, locId: string, payload: Body<typeof PickFaceSetting>) => ({ ...byFace(skuId, locId), payload })
    ),
    remove: pickFaces("deletePickFace", byFace)
  },
  replenishment: {
    /** Opens the Replenish tasks the faces (of `sku_id`, or `zone`) need; resolves to `{tasks}`. */
    run: replenishment(
      "runReplenishment",
      (payload: Body<typeof ReplenishmentRunRequest> = {}) => ({ payload })
    )
  },
  waveDefinitions: {
    list: waveDefinitions("listWaveDefinitions", windowed),
    get: waveDefinitions("getWaveDefinition", byNumber),
    /** Resolves to the new definition's id. */
    create: waveDefinitions("createWaveDefinition", (payload: Definition) => ({ payload })),
    update: waveDefinitions(
      "updateWaveDefinition",
      (id: number, payload: Definition) => ({ ...byNumber(id), payload })
    ),
    remove: waveDefinitions("deleteWaveDefinition", byNumber)
  },
  waves: {
    /** Creates a wave from a definition: `{message, wave_id}`. */
    create: waves("create", (wavedefId: number) => ({ payload: { wavedef_id: wavedefId } })),
    /** Allocates the wave's orders and creates its pick tasks: `{message}`. */
    start: waves("start", (waveId: number) => ({ payload: { wave_id: waveId } })),
    list: waves("list", everything),
    get: waves("get", byNumber),
    /** Releases the wave's allocation and removes it; once picking has started, a `Conflict`. */
    remove: waves("remove", byNumber),
    orders: waves("orders", (id: number) => ({ ...byNumber(id), ...everything() })),
    claimsets: waves("claimsets", (id: number) => ({ ...byNumber(id), ...everything() })),
    claims: waves("claims", (id: number) => ({ ...byNumber(id), ...everything() })),
    tasks: waves("tasks", (id: number) => ({ ...byNumber(id), ...everything() }))
  },
  tasks: {
    /** The scope's open pick tasks, optionally of one wave or SKU. */
    list: picking("tasks", (query: TaskQuery = {}) => ({ urlParams: query })),
    /** Confirms a pick: the whole task, or `{ qty }` for a short pick (the rest is lost). */
    confirm: picking(
      "confirm",
      (id: number, payload: Body<typeof ConfirmTaskRequest> = {}) => ({ ...byNumber(id), payload })
    )
  },
  webhooks: {
    list: webhooks("listWebhooks", windowed),
    get: webhooks("getWebhook", byNumber),
    create: webhooks("createWebhook", (payload: Webhook) => ({ payload })),
    update: webhooks("updateWebhook", (id: number, payload: Webhook) => ({ ...byNumber(id), payload })),
    remove: webhooks("deleteWebhook", byNumber),
    /** The webhook's delivery log, newest first. */
    deliveries: webhooks(
      "listWebhookDeliveries",
      (id: number, window?: ListWindow) => ({ ...byNumber(id), ...windowed(window) })
    )
  }
}
