/**
 * How a method's positional arguments make its endpoint's input: the facade's methods are the
 * endpoints of the groups with a table, under the group's id and the endpoint's name, as in the
 * typed client (`orders.getOrderLine(id, line)` is `getOrderLine` with `{ path: { id, line_id: line } }`).
 * Every such endpoint has its method, and path and query values are checked against the API
 * declaration; bodies are given as the REST API takes them, JSON, and checked by the endpoint's
 * schema when called (`Facade.ts`). `formerNames` keeps the names the facade had before.
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
  UserChanges,
  WaveDefinitionInput,
  WebhookInput
} from "@wms/core"
import type { Effect, Schema, Types } from "effect"
import type { Endpoint, EndpointName } from "../Api.js"
import type { HandlersOf } from "../features/Feature.js"
import type { features } from "../features/index.js"
import type { Input } from "../features/Table.js"

/** An endpoint's input as a method's arguments give it: path and query values as typed, the body as JSON. */
export type Given<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = Types.Simplify<
  { readonly [K in keyof Input<E>]: K extends "payload" ? unknown : Input<E>[K] }
>

/** The features whose handlers are a table: the groups the facade offers. */
export type TableFeature = Extract<
  (typeof features)[number],
  { readonly handlers: () => Promise<Effect.Effect<any, any, any>> }
>

/** The name of a group the facade offers. */
export type TableGroupName = TableFeature["group"]["identifier"]

/** The built table of the group named `G`. */
export type TableOf<G extends TableGroupName> = Effect.Effect.Success<
  HandlersOf<Extract<TableFeature, { readonly group: { readonly identifier: G } }>>
>

/** Every method of the facade: for each endpoint, how its arguments make the endpoint's input. */
type Methods = {
  readonly [G in TableGroupName]: {
    readonly [E in EndpointName<G>]: (...args: never) => Given<Endpoint<G, E>>
  }
}

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
const byFace = (skuId: string, locId: string) => ({ path: { sku_id: skuId, loc_id: locId } })
const byUser = (userId: string) => ({ path: { userId } })

/** Every method of the facade, by group and endpoint. */
export const methods = {
  admin: {
    listSites: everything,
    createSite: (payload: Body<typeof NewSite>) => ({ payload }),
    /** The site's settings (`putaway_on_receipt`, `count_variance_threshold`). */
    getSiteSettings: byText,
    /** Changes the settings present, keeps the others. */
    updateSiteSettings: (id: string, payload: Body<typeof SiteSettingsUpdate>) => ({ ...byText(id), payload }),
    listClients: everything,
    createClient: (payload: Body<typeof NewClient>) => ({ payload }),
    listUsers: everything,
    createUser: (payload: Body<typeof NewUser>) => ({ payload }),
    /** Changes the fields present; every change ends the user's tokens. */
    updateUser: (userId: string, payload: Body<typeof UserChanges>) => ({ ...byUser(userId), payload }),
    deleteUser: byUser
  },
  customers: {
    listCustomers: windowed,
    getCustomer: byNumber,
    /** Resolves to the new record's id. */
    createCustomer: (payload: Partner) => ({ payload }),
    updateCustomer: (id: number, payload: Partner) => ({ ...byNumber(id), payload }),
    deleteCustomer: byNumber
  },
  suppliers: {
    listSuppliers: windowed,
    getSupplier: byNumber,
    /** Resolves to the new record's id. */
    createSupplier: (payload: Partner) => ({ payload }),
    updateSupplier: (id: number, payload: Partner) => ({ ...byNumber(id), payload }),
    deleteSupplier: byNumber
  },
  carriers: {
    listCarriers: windowed,
    getCarrier: byNumber,
    /** Resolves to the new carrier's id. */
    createCarrier: (payload: Carrier) => ({ payload }),
    updateCarrier: (id: number, payload: Carrier) => ({ ...byNumber(id), payload }),
    deleteCarrier: byNumber
  },
  skus: {
    listSkus: windowed,
    getSku: byText,
    createSku: (payload: Body<typeof NewSku>) => ({ payload }),
    /** Updates the SKU, or creates it when it does not exist yet (`PUT /skus/:id`). */
    updateSku: (id: string, payload: Body<typeof SkuUpdate>) => ({ ...byText(id), payload })
  },
  skuGroups: {
    listSkuGroups: windowed,
    getSkuGroup: byText,
    /** Resolves to the generated `sku_group_id`. */
    createSkuGroup: (payload: Body<typeof NewSkuGroup>) => ({ payload }),
    updateSkuGroup: (id: string, payload: Body<typeof SkuGroupUpdate>) => ({ ...byText(id), payload }),
    deleteSkuGroup: byText
  },
  pickMethods: {
    listPickMethods: windowed
  },
  orders: {
    /** The scope's orders; `{ lines: false }` leaves the lines out. */
    listOrders: (options: { readonly lines?: boolean } = {}) => ({
      urlParams: options.lines === false ? { lines: "false" as const } : {}
    }),
    getOrder: byText,
    createOrder: (payload: Body<typeof NewOrder>) => ({ payload }),
    updateOrder: (id: string, payload: Body<typeof OrderUpdate>) => ({ ...byText(id), payload }),
    deleteOrder: byText,
    listOrderLines: (id: string) => ({ ...byText(id), ...everything() }),
    getOrderLine: byLine,
    /** Adds one line or an array of lines; a line without `line` gets the next number. */
    addOrderLines: (id: string, payload: Line | ReadonlyArray<Line>) => ({ ...byText(id), payload }),
    updateOrderLine: (id: string, line: number, payload: Body<typeof OrderLineUpdate>) => ({
      ...byLine(id, line),
      payload
    }),
    deleteOrderLine: byLine
  },
  preAdvices: {
    listPreAdvices: (page: PreAdvicePage = {}) => ({ urlParams: page }),
    getPreAdvice: byText,
    createPreAdvice: (payload: Body<typeof NewPreAdvice>) => ({ payload }),
    updatePreAdvice: (id: string, payload: Body<typeof PreAdviceChanges>) => ({ ...byText(id), payload }),
    deletePreAdvice: byText,
    listPreAdviceLines: (id: string, page: PreAdvicePage = {}) => ({ ...byText(id), urlParams: page }),
    getPreAdviceLine: byLine,
    /** Adds one line or an array of lines. */
    addPreAdviceLines: (id: string, payload: Body<typeof PreAdviceLinesPayload>) => ({ ...byText(id), payload }),
    updatePreAdviceLine: (id: string, line: number, payload: Body<typeof PreAdviceLineChanges>) => ({
      ...byLine(id, line),
      payload
    }),
    deletePreAdviceLine: byLine
  },
  inventory: {
    overview: everything,
    content: byNumber,
    transactions: everything,
    transaction: byNumber,
    lostAndFound: everything,
    lostAndFoundItem: byNumber,
    /** A stock adjustment: `{content_id, qty}` or `{sku_id, loc_id, tag_id?, expiry_date?, qty}`. */
    adjust: (payload: Body<typeof AdjustmentRequest>) => ({ payload })
  },
  receiving: {
    /**
     * Receives the given lines of a pre-advice, or without `lines` everything still expected, into
     * stock. With putaway (`putaway: true`, or the site's `putaway_on_receipt`) resolves to
     * `{tasks, unplaced}`; without, to nothing.
     */
    receive: (id: string, payload: Body<typeof ReceiptRequest> = {}) => ({ ...byText(id), payload })
  },
  locations: {
    /** The site's locations with their occupancy; optional filters `zone`, `loc_type`, `status`. */
    listLocations: (query: LocationQuery = {}) => ({ urlParams: query }),
    getLocation: byText,
    /** Resolves to the new location's record. */
    createLocation: (payload: Body<typeof NewLocation>) => ({ payload }),
    /** Replaces every writable field (`PUT /locations/:id`): status changes go through here. */
    updateLocation: (id: string, payload: Body<typeof LocationUpdate>) => ({ ...byText(id), payload }),
    deleteLocation: byText,
    /** A Move task per content at the location with stock available; resolves to the tasks. */
    moveAll: (id: string, payload: Body<typeof MoveAllRequest>) => ({ ...byText(id), payload })
  },
  movementTasks: {
    /** The scope's Open movement tasks, or those of `status_id`, with optional filters. */
    listMovementTasks: (query: MovementTaskQuery = {}) => ({ urlParams: query }),
    getMovementTask: byNumber,
    /** A Move task: `{content_id, qty, to_loc_id}` or `{sku_id, from_loc_id, tag_id?, qty, to_loc_id}`; resolves to it. */
    createMovementTask: (payload: Body<typeof NewMoveRequest>) => ({ payload }),
    /** Carries the task's stock, or `{ qty }` of it, to its destination or `{ to_loc_id }`. */
    confirmMovementTask: (id: number, payload: Body<typeof ConfirmMoveRequest> = {}) => ({ ...byNumber(id), payload }),
    cancelMovementTask: byNumber,
    /** Putaway tasks for a content at a receiving location; resolves to the tasks made. */
    createPutawayTasks: (payload: Body<typeof PutawayRequest>) => ({ payload })
  },
  counts: {
    /** The site's counts, every status unless `status` says; optional filters `loc_id`, `zone`. */
    listCounts: (query: CountQuery = {}) => ({ urlParams: query }),
    getCount: byNumber,
    /** An Open count of a managed location (`{loc_id, sku_id?, blind?, assignee?, reason?}`); resolves to it. */
    createCount: (payload: Body<typeof NewCountRequest>) => ({ payload }),
    /** Open counts of the locations counted longest ago (`{zone?, loc_type?, max?}`); resolves to them. */
    planCounts: (payload: Body<typeof PlanCountsRequest> = {}) => ({ payload }),
    /** Freezes the location and snapshots what it holds. */
    releaseCount: byNumber,
    /** Records counted lines; applies the count when every line is within the threshold. */
    recordCount: (id: number, payload: Body<typeof RecordCountRequest>) => ({ ...byNumber(id), payload }),
    /** Applies a Pending Approval count with `{reason_code}` (admins). */
    approveCount: (id: number, payload: Body<typeof ApproveCountRequest>) => ({ ...byNumber(id), payload }),
    recountCount: byNumber,
    cancelCount: byNumber
  },
  pickFaces: {
    /** The pick-face settings with each face's stock; optional filters `sku_id`, `loc_id`. */
    listPickFaces: (query: PickFaceQuery = {}) => ({ urlParams: query }),
    getPickFace: byFace,
    /** Upserts `{min_qty, max_qty, replenish_multiple?}` of the SKU at the PickFace location. */
    putPickFace: (skuId: string, locId: string, payload: Body<typeof PickFaceSetting>) => ({
      ...byFace(skuId, locId),
      payload
    }),
    deletePickFace: byFace
  },
  replenishment: {
    /** Opens the Replenish tasks the faces (of `sku_id`, or `zone`) need; resolves to `{tasks}`. */
    runReplenishment: (payload: Body<typeof ReplenishmentRunRequest> = {}) => ({ payload })
  },
  waveDefinitions: {
    listWaveDefinitions: windowed,
    getWaveDefinition: byNumber,
    /** Resolves to the new definition's id. */
    createWaveDefinition: (payload: Definition) => ({ payload }),
    updateWaveDefinition: (id: number, payload: Definition) => ({ ...byNumber(id), payload }),
    deleteWaveDefinition: byNumber
  },
  waves: {
    /** Creates a wave from a definition: `{message, wave_id}`. */
    create: (wavedefId: number) => ({ payload: { wavedef_id: wavedefId } }),
    /** Allocates the wave's orders and creates its pick tasks: `{message}`. */
    start: (waveId: number) => ({ payload: { wave_id: waveId } }),
    list: everything,
    get: byNumber,
    /** Releases the wave's allocation and removes it; once picking has started, a `Conflict`. */
    remove: byNumber,
    orders: (id: number) => ({ ...byNumber(id), ...everything() }),
    claimsets: (id: number) => ({ ...byNumber(id), ...everything() }),
    claims: (id: number) => ({ ...byNumber(id), ...everything() }),
    tasks: (id: number) => ({ ...byNumber(id), ...everything() })
  },
  picking: {
    /** The scope's open pick tasks, optionally of one wave or SKU. */
    tasks: (query: TaskQuery = {}) => ({ urlParams: query }),
    /** Confirms a pick: the whole task, or `{ qty }` for a short pick (the rest is lost). */
    confirm: (id: number, payload: Body<typeof ConfirmTaskRequest> = {}) => ({ ...byNumber(id), payload }),
    /** Ships what was picked of the order (`POST /orders/:id/ship`). */
    ship: byText
  },
  webhooks: {
    listWebhooks: windowed,
    getWebhook: byNumber,
    createWebhook: (payload: Webhook) => ({ payload }),
    updateWebhook: (id: number, payload: Webhook) => ({ ...byNumber(id), payload }),
    deleteWebhook: byNumber,
    /** The webhook's delivery log, newest first. */
    listWebhookDeliveries: (id: number, window?: ListWindow) => ({ ...byNumber(id), ...windowed(window) })
  }
} satisfies Methods

/** A method of the facade, by group and endpoint. */
type Target = { readonly [G in keyof typeof methods]: readonly [G, keyof (typeof methods)[G]] }[keyof typeof methods]

/**
 * The names the facade had before it took the endpoints' (0.1), by namespace, each with the method
 * it now is. Deprecated; removed in 0.3 (CHANGELOG).
 */
export const formerNames = {
  sites: {
    /** @deprecated Use `admin.listSites`. */
    list: ["admin", "listSites"],
    /** @deprecated Use `admin.createSite`. */
    create: ["admin", "createSite"],
    /** @deprecated Use `admin.getSiteSettings`. */
    settings: ["admin", "getSiteSettings"],
    /** @deprecated Use `admin.updateSiteSettings`. */
    updateSettings: ["admin", "updateSiteSettings"]
  },
  clients: {
    /** @deprecated Use `admin.listClients`. */
    list: ["admin", "listClients"],
    /** @deprecated Use `admin.createClient`. */
    create: ["admin", "createClient"]
  },
  users: {
    /** @deprecated Use `admin.listUsers`. */
    list: ["admin", "listUsers"],
    /** @deprecated Use `admin.createUser`. */
    create: ["admin", "createUser"]
  },
  customers: {
    /** @deprecated Use `customers.listCustomers`. */
    list: ["customers", "listCustomers"],
    /** @deprecated Use `customers.getCustomer`. */
    get: ["customers", "getCustomer"],
    /** @deprecated Use `customers.createCustomer`. */
    create: ["customers", "createCustomer"],
    /** @deprecated Use `customers.updateCustomer`. */
    update: ["customers", "updateCustomer"],
    /** @deprecated Use `customers.deleteCustomer`. */
    remove: ["customers", "deleteCustomer"]
  },
  suppliers: {
    /** @deprecated Use `suppliers.listSuppliers`. */
    list: ["suppliers", "listSuppliers"],
    /** @deprecated Use `suppliers.getSupplier`. */
    get: ["suppliers", "getSupplier"],
    /** @deprecated Use `suppliers.createSupplier`. */
    create: ["suppliers", "createSupplier"],
    /** @deprecated Use `suppliers.updateSupplier`. */
    update: ["suppliers", "updateSupplier"],
    /** @deprecated Use `suppliers.deleteSupplier`. */
    remove: ["suppliers", "deleteSupplier"]
  },
  carriers: {
    /** @deprecated Use `carriers.listCarriers`. */
    list: ["carriers", "listCarriers"],
    /** @deprecated Use `carriers.getCarrier`. */
    get: ["carriers", "getCarrier"],
    /** @deprecated Use `carriers.createCarrier`. */
    create: ["carriers", "createCarrier"],
    /** @deprecated Use `carriers.updateCarrier`. */
    update: ["carriers", "updateCarrier"],
    /** @deprecated Use `carriers.deleteCarrier`. */
    remove: ["carriers", "deleteCarrier"]
  },
  skus: {
    /** @deprecated Use `skus.listSkus`. */
    list: ["skus", "listSkus"],
    /** @deprecated Use `skus.getSku`. */
    get: ["skus", "getSku"],
    /** @deprecated Use `skus.createSku`. */
    create: ["skus", "createSku"],
    /** @deprecated Use `skus.updateSku`. */
    upsert: ["skus", "updateSku"]
  },
  skuGroups: {
    /** @deprecated Use `skuGroups.listSkuGroups`. */
    list: ["skuGroups", "listSkuGroups"],
    /** @deprecated Use `skuGroups.getSkuGroup`. */
    get: ["skuGroups", "getSkuGroup"],
    /** @deprecated Use `skuGroups.createSkuGroup`. */
    create: ["skuGroups", "createSkuGroup"],
    /** @deprecated Use `skuGroups.updateSkuGroup`. */
    update: ["skuGroups", "updateSkuGroup"],
    /** @deprecated Use `skuGroups.deleteSkuGroup`. */
    remove: ["skuGroups", "deleteSkuGroup"]
  },
  pickMethods: {
    /** @deprecated Use `pickMethods.listPickMethods`. */
    list: ["pickMethods", "listPickMethods"]
  },
  orders: {
    /** @deprecated Use `orders.listOrders`. */
    list: ["orders", "listOrders"],
    /** @deprecated Use `orders.getOrder`. */
    get: ["orders", "getOrder"],
    /** @deprecated Use `orders.createOrder`. */
    create: ["orders", "createOrder"],
    /** @deprecated Use `orders.updateOrder`. */
    update: ["orders", "updateOrder"],
    /** @deprecated Use `orders.deleteOrder`. */
    remove: ["orders", "deleteOrder"],
    /** @deprecated Use `orders.listOrderLines`. */
    lines: ["orders", "listOrderLines"],
    /** @deprecated Use `orders.getOrderLine`. */
    line: ["orders", "getOrderLine"],
    /** @deprecated Use `orders.addOrderLines`. */
    addLines: ["orders", "addOrderLines"],
    /** @deprecated Use `orders.updateOrderLine`. */
    updateLine: ["orders", "updateOrderLine"],
    /** @deprecated Use `orders.deleteOrderLine`. */
    removeLine: ["orders", "deleteOrderLine"],
    /** @deprecated Use `picking.ship`. */
    ship: ["picking", "ship"]
  },
  preadvices: {
    /** @deprecated Use `preAdvices.listPreAdvices`. */
    list: ["preAdvices", "listPreAdvices"],
    /** @deprecated Use `preAdvices.getPreAdvice`. */
    get: ["preAdvices", "getPreAdvice"],
    /** @deprecated Use `preAdvices.createPreAdvice`. */
    create: ["preAdvices", "createPreAdvice"],
    /** @deprecated Use `preAdvices.updatePreAdvice`. */
    update: ["preAdvices", "updatePreAdvice"],
    /** @deprecated Use `preAdvices.deletePreAdvice`. */
    remove: ["preAdvices", "deletePreAdvice"],
    /** @deprecated Use `preAdvices.listPreAdviceLines`. */
    lines: ["preAdvices", "listPreAdviceLines"],
    /** @deprecated Use `preAdvices.getPreAdviceLine`. */
    line: ["preAdvices", "getPreAdviceLine"],
    /** @deprecated Use `preAdvices.addPreAdviceLines`. */
    addLines: ["preAdvices", "addPreAdviceLines"],
    /** @deprecated Use `preAdvices.updatePreAdviceLine`. */
    updateLine: ["preAdvices", "updatePreAdviceLine"],
    /** @deprecated Use `preAdvices.deletePreAdviceLine`. */
    removeLine: ["preAdvices", "deletePreAdviceLine"],
    /** @deprecated Use `receiving.receive`. */
    receive: ["receiving", "receive"]
  },
  locations: {
    /** @deprecated Use `locations.listLocations`. */
    list: ["locations", "listLocations"],
    /** @deprecated Use `locations.getLocation`. */
    get: ["locations", "getLocation"],
    /** @deprecated Use `locations.createLocation`. */
    create: ["locations", "createLocation"],
    /** @deprecated Use `locations.updateLocation`. */
    replace: ["locations", "updateLocation"],
    /** @deprecated Use `locations.deleteLocation`. */
    remove: ["locations", "deleteLocation"]
  },
  movementTasks: {
    /** @deprecated Use `movementTasks.listMovementTasks`. */
    list: ["movementTasks", "listMovementTasks"],
    /** @deprecated Use `movementTasks.getMovementTask`. */
    get: ["movementTasks", "getMovementTask"],
    /** @deprecated Use `movementTasks.createMovementTask`. */
    create: ["movementTasks", "createMovementTask"],
    /** @deprecated Use `movementTasks.confirmMovementTask`. */
    confirm: ["movementTasks", "confirmMovementTask"],
    /** @deprecated Use `movementTasks.cancelMovementTask`. */
    cancel: ["movementTasks", "cancelMovementTask"],
    /** @deprecated Use `movementTasks.createPutawayTasks`. */
    putaway: ["movementTasks", "createPutawayTasks"]
  },
  counts: {
    /** @deprecated Use `counts.listCounts`. */
    list: ["counts", "listCounts"],
    /** @deprecated Use `counts.getCount`. */
    get: ["counts", "getCount"],
    /** @deprecated Use `counts.createCount`. */
    create: ["counts", "createCount"],
    /** @deprecated Use `counts.planCounts`. */
    plan: ["counts", "planCounts"],
    /** @deprecated Use `counts.releaseCount`. */
    release: ["counts", "releaseCount"],
    /** @deprecated Use `counts.recordCount`. */
    record: ["counts", "recordCount"],
    /** @deprecated Use `counts.approveCount`. */
    approve: ["counts", "approveCount"],
    /** @deprecated Use `counts.recountCount`. */
    recount: ["counts", "recountCount"],
    /** @deprecated Use `counts.cancelCount`. */
    cancel: ["counts", "cancelCount"]
  },
  pickFaces: {
    /** @deprecated Use `pickFaces.listPickFaces`. */
    list: ["pickFaces", "listPickFaces"],
    /** @deprecated Use `pickFaces.getPickFace`. */
    get: ["pickFaces", "getPickFace"],
    /** @deprecated Use `pickFaces.putPickFace`. */
    put: ["pickFaces", "putPickFace"],
    /** @deprecated Use `pickFaces.deletePickFace`. */
    remove: ["pickFaces", "deletePickFace"]
  },
  replenishment: {
    /** @deprecated Use `replenishment.runReplenishment`. */
    run: ["replenishment", "runReplenishment"]
  },
  waveDefinitions: {
    /** @deprecated Use `waveDefinitions.listWaveDefinitions`. */
    list: ["waveDefinitions", "listWaveDefinitions"],
    /** @deprecated Use `waveDefinitions.getWaveDefinition`. */
    get: ["waveDefinitions", "getWaveDefinition"],
    /** @deprecated Use `waveDefinitions.createWaveDefinition`. */
    create: ["waveDefinitions", "createWaveDefinition"],
    /** @deprecated Use `waveDefinitions.updateWaveDefinition`. */
    update: ["waveDefinitions", "updateWaveDefinition"],
    /** @deprecated Use `waveDefinitions.deleteWaveDefinition`. */
    remove: ["waveDefinitions", "deleteWaveDefinition"]
  },
  tasks: {
    /** @deprecated Use `picking.tasks`. */
    list: ["picking", "tasks"],
    /** @deprecated Use `picking.confirm`. */
    confirm: ["picking", "confirm"]
  },
  webhooks: {
    /** @deprecated Use `webhooks.listWebhooks`. */
    list: ["webhooks", "listWebhooks"],
    /** @deprecated Use `webhooks.getWebhook`. */
    get: ["webhooks", "getWebhook"],
    /** @deprecated Use `webhooks.createWebhook`. */
    create: ["webhooks", "createWebhook"],
    /** @deprecated Use `webhooks.updateWebhook`. */
    update: ["webhooks", "updateWebhook"],
    /** @deprecated Use `webhooks.deleteWebhook`. */
    remove: ["webhooks", "deleteWebhook"],
    /** @deprecated Use `webhooks.listWebhookDeliveries`. */
    deliveries: ["webhooks", "listWebhookDeliveries"]
  }
} as const satisfies { readonly [Namespace: string]: { readonly [Method: string]: Target } }
