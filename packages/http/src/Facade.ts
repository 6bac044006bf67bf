/**
 * The engine for applications that do not use Effect: every operation of the API as a method that
 * returns a Promise. A failure rejects with the core's tagged error itself, with its data
 * (`OrderNotFound { orderId }`, `WaveStarted { waveId }`, …, or `InvalidInput`, `Forbidden`,
 * `Unauthenticated`), so `instanceof` and `_tag` work, `category` names its status family
 * (`isNotFound(error)`), and `message` is the text the REST API would answer.
 *
 * ```ts
 * const wms = await createWarehouse({ database: "sqlite:./wms.db" })
 * await wms.skus.create({ sku_id: "APPLE", description: "Apple" })
 * await wms.orders.create({ order_id: "SO-1", lines: [{ sku_id: "APPLE", qty: 3 }] })
 * const north = wms.as({ site: "north" })   // another site, or a client of a fulfillment site
 * await wms.close()
 * ```
 *
 * Inputs are the REST API's JSON bodies and are checked by the same schemas, so a bad one rejects
 * with the same 400 message (`Missing field order_id`). The namespaces act as trusted code (see
 * `systemActor` in `@wms/core`): as the system, an admin, unless a `user` is named.
 */
import {
  type Actor,
  AdjustmentRequest,
  Administration,
  CarrierInput,
  Carriers,
  ConfirmTaskRequest,
  decodeInput,
  ensureSite,
  type EventPayload,
  EventSubscriptions,
  type EventType,
  Inventory,
  listPickMethods,
  type ListWindow,
  NewClient,
  NewOrder,
  NewOrderLine,
  NewPreAdvice,
  NewSite,
  NewSku,
  NewSkuGroup,
  NewUser,
  OrderLineUpdate,
  Orders,
  OrderUpdate,
  PartnerInput,
  Partners,
  Picking,
  PreAdviceChanges,
  PreAdviceLineChanges,
  PreAdviceLinesPayload,
  PreAdvices,
  ReceiptRequest,
  Receiving,
  SkuGroups,
  SkuGroupUpdate,
  Skus,
  SkuUpdate,
  systemActor,
  type TaskQuery,
  userActor,
  WaveDefinitionInput,
  WaveDefinitions,
  Waves,
  WebhookInput,
  Webhooks
} from "@wms/core"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Schema, Scope } from "effect"
import * as Warehouse from "./Warehouse.js"
import * as WebhookWorker from "./WebhookWorker.js"

/** Every service `Warehouse.layer` provides: what `run` may use. */
export type WarehouseServices = Layer.Layer.Success<ReturnType<typeof Warehouse.layer>>

/** Where and as whom the namespaces act. */
export interface ActAs {
  /** A site id (the whole site), or a client id of a fulfillment site (that client's records only). */
  readonly site: string
  /**
   * The e-mail of a stored user to act as, with that user's rights (no password asked: the
   * application vouches for it). Without it the namespaces act as the system, an admin.
   */
  readonly user?: string
}

export interface CreateWarehouseOptions extends Warehouse.WarehouseOptions {
  /**
   * Where the namespaces of the returned warehouse act (default `main`). When the database has no
   * site or client of this id yet, a site of that id is created (not a fulfillment site).
   */
  readonly site?: string
  /** The e-mail of the user the namespaces act as; the system (an admin) when absent. */
  readonly user?: string
  /**
   * Runs the webhook worker in this process (default true): it delivers the registered webhooks
   * and feeds `events.subscribe`. Several processes on one database may each run it.
   */
  readonly worker?: boolean
}

type Encoded<S extends Schema.Schema.Any> = Schema.Schema.Encoded<S>

/** Every operation of the API, acting in one scope. */
export interface WarehouseScope {
  /** Where and as whom these namespaces act. */
  readonly scope: ActAs
  /** The same operations in another scope (the same database and services). */
  readonly as: (scope: ActAs) => WarehouseScope
  readonly sites: ReturnType<typeof sitesOf>
  readonly clients: ReturnType<typeof clientsOf>
  readonly users: ReturnType<typeof usersOf>
  readonly customers: ReturnType<typeof partnersOf>
  readonly suppliers: ReturnType<typeof partnersOf>
  readonly carriers: ReturnType<typeof carriersOf>
  readonly skus: ReturnType<typeof skusOf>
  readonly skuGroups: ReturnType<typeof skuGroupsOf>
  readonly pickMethods: { readonly list: (window?: ListWindow) => Promise<ReturnType<typeof listPickMethods>> }
  readonly orders: ReturnType<typeof ordersOf>
  readonly preadvices: ReturnType<typeof preAdvicesOf>
  readonly inventory: ReturnType<typeof inventoryOf>
  readonly waveDefinitions: ReturnType<typeof waveDefinitionsOf>
  readonly waves: ReturnType<typeof wavesOf>
  readonly tasks: ReturnType<typeof tasksOf>
  readonly webhooks: ReturnType<typeof webhooksOf>
}

/** A warehouse on its own database, with every operation of the API as a Promise. */
export interface WarehouseClient extends WarehouseScope {
  /** Runs an Effect program on the warehouse's services: the door back into the typed API. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, WarehouseServices>) => Promise<A>
  /** In-process subscriptions to the warehouse events of every site (needs the worker). */
  readonly events: {
    /**
     * Calls `handler` after commit for every event of `eventType` (or `"*"`: every type), in
     * event order; resolves to the function that ends the subscription. A handler that throws or
     * rejects is logged and does not stop the others.
     */
    readonly subscribe: (
      eventType: EventType | "*",
      handler: (event: EventPayload) => void | Promise<void>
    ) => Promise<() => Promise<void>>
  }
  /** Closes the database; the warehouse is unusable afterwards. */
  readonly close: () => Promise<void>
}

/** Runs an operation; a failure rejects with the domain error itself rather than a wrapper. */
const runner = (runtime: ManagedRuntime.ManagedRuntime<WarehouseServices, never>) =>
<A, E>(effect: Effect.Effect<A, E, WarehouseServices>): Promise<A> =>
  runtime.runPromiseExit(effect).then((exit) => {
    if (Exit.isSuccess(exit)) return exit.value
    throw Cause.squash(exit.cause)
  })

type Run = ReturnType<typeof runner>

/** What each namespace is built from: how to run, and the actor of every call. */
interface Binding {
  readonly run: Run
  readonly actor: Effect.Effect<Actor, unknown, WarehouseServices>
}

// The site is checked before the input, as over HTTP (403 before 400).
const call = <A, E>({ actor, run }: Binding, f: (actor: Actor) => Effect.Effect<A, E, WarehouseServices>) =>
  run(Effect.flatMap(actor, f))

const withInput = <T, I, A, E>(
  binding: Binding,
  schema: Schema.Schema<T, I>,
  input: unknown,
  f: (actor: Actor, value: T) => Effect.Effect<A, E, WarehouseServices>
) => call(binding, (actor) => Effect.flatMap(decodeInput(schema, input), (value) => f(actor, value)))

const sitesOf = (b: Binding) => ({
  list: () => call(b, (actor) => Effect.flatMap(Administration, (_) => _.listSites(actor))),
  create: (input: Encoded<typeof NewSite>) =>
    withInput(b, NewSite, input, (actor, v) => Effect.flatMap(Administration, (_) => _.createSite(actor, v)))
})

const clientsOf = (b: Binding) => ({
  list: () => call(b, (actor) => Effect.flatMap(Administration, (_) => _.listClients(actor))),
  create: (input: Encoded<typeof NewClient>) =>
    withInput(b, NewClient, input, (actor, v) => Effect.flatMap(Administration, (_) => _.createClient(actor, v)))
})

const usersOf = (b: Binding) => ({
  list: () => call(b, (actor) => Effect.flatMap(Administration, (_) => _.listUsers(actor))),
  create: (input: Encoded<typeof NewUser>) =>
    withInput(b, NewUser, input, (actor, v) => Effect.flatMap(Administration, (_) => _.createUser(actor, v)))
})

const partnersOf = (b: Binding, kind: "customers" | "suppliers") => {
  const use = <A>(f: (partners: Partners[typeof kind]) => Effect.Effect<A, unknown, WarehouseServices>) =>
    Effect.flatMap(Partners, (_) => f(_[kind]))
  return {
    list: (window?: ListWindow) => call(b, (actor) => use((_) => _.list(actor, window))),
    get: (id: number) => call(b, (actor) => use((_) => _.get(actor, id))),
    /** Resolves to the new record's id. */
    create: (input: Encoded<typeof PartnerInput>) =>
      withInput(b, PartnerInput, input, (actor, v) => use((_) => _.create(actor, v))),
    update: (id: number, input: Encoded<typeof PartnerInput>) =>
      withInput(b, PartnerInput, input, (actor, v) => use((_) => _.update(actor, id, v))),
    remove: (id: number) => call(b, (actor) => use((_) => _.remove(actor, id)))
  }
}

const carriersOf = (b: Binding) => ({
  list: (window?: ListWindow) => call(b, (actor) => Effect.flatMap(Carriers, (_) => _.list(actor, window))),
  get: (id: number) => call(b, (actor) => Effect.flatMap(Carriers, (_) => _.get(actor, id))),
  /** Resolves to the new carrier's id. */
  create: (input: Encoded<typeof CarrierInput>) =>
    withInput(b, CarrierInput, input, (actor, v) => Effect.flatMap(Carriers, (_) => _.create(actor, v))),
  update: (id: number, input: Encoded<typeof CarrierInput>) =>
    withInput(b, CarrierInput, input, (actor, v) => Effect.flatMap(Carriers, (_) => _.update(actor, id, v))),
  remove: (id: number) => call(b, (actor) => Effect.flatMap(Carriers, (_) => _.remove(actor, id)))
})

const skusOf = (b: Binding) => ({
  list: (window?: ListWindow) => call(b, (actor) => Effect.flatMap(Skus, (_) => _.list(actor, window))),
  get: (id: string) => call(b, (actor) => Effect.flatMap(Skus, (_) => _.get(actor, id))),
  create: (input: Encoded<typeof NewSku>) =>
    withInput(b, NewSku, input, (actor, v) => Effect.flatMap(Skus, (_) => _.create(actor, v))),
  /** Updates the SKU, or creates it when it does not exist yet (`PUT /skus/:id`). */
  upsert: (id: string, input: Encoded<typeof SkuUpdate>) =>
    withInput(b, SkuUpdate, input, (actor, v) => Effect.flatMap(Skus, (_) => _.upsert(actor, id, v)))
})

const skuGroupsOf = (b: Binding) => ({
  list: (window?: ListWindow) => call(b, (actor) => Effect.flatMap(SkuGroups, (_) => _.list(actor, window))),
  get: (id: string) => call(b, (actor) => Effect.flatMap(SkuGroups, (_) => _.get(actor, id))),
  /** Resolves to the generated `sku_group_id`. */
  create: (input: Encoded<typeof NewSkuGroup>) =>
    withInput(b, NewSkuGroup, input, (actor, v) => Effect.flatMap(SkuGroups, (_) => _.create(actor, v))),
  update: (id: string, input: Encoded<typeof SkuGroupUpdate>) =>
    withInput(b, SkuGroupUpdate, input, (actor, v) => Effect.flatMap(SkuGroups, (_) => _.update(actor, id, v))),
  remove: (id: string) => call(b, (actor) => Effect.flatMap(SkuGroups, (_) => _.remove(actor, id)))
})

const NewOrderLines = Schema.Array(NewOrderLine)

const ordersOf = (b: Binding) => ({
  /** The scope's orders; `{ lines: false }` leaves the lines out. */
  list: (options: { readonly lines?: boolean } = {}) =>
    call(b, (actor) => Effect.flatMap(Orders, (_) => _.list(actor, { lines: options.lines ?? true }))),
  get: (orderId: string) => call(b, (actor) => Effect.flatMap(Orders, (_) => _.get(actor, orderId))),
  create: (input: Encoded<typeof NewOrder>) =>
    withInput(b, NewOrder, input, (actor, v) => Effect.flatMap(Orders, (_) => _.create(actor, v))),
  update: (orderId: string, input: Encoded<typeof OrderUpdate>) =>
    withInput(b, OrderUpdate, input, (actor, v) => Effect.flatMap(Orders, (_) => _.update(actor, orderId, v))),
  remove: (orderId: string) => call(b, (actor) => Effect.flatMap(Orders, (_) => _.remove(actor, orderId))),
  lines: (orderId: string) => call(b, (actor) => Effect.flatMap(Orders, (_) => _.listLines(actor, orderId))),
  line: (orderId: string, line: number) =>
    call(b, (actor) => Effect.flatMap(Orders, (_) => _.getLine(actor, orderId, line))),
  /** Adds one line or an array of lines; a line without `line` gets the next number. */
  addLines: (orderId: string, input: Encoded<typeof NewOrderLine> | Encoded<typeof NewOrderLines>) =>
    // The shape picks the schema, so a failure names the field of that shape (`0.qty`), as over HTTP.
    Array.isArray(input)
      ? withInput(b, NewOrderLines, input, (actor, v) => Effect.flatMap(Orders, (_) => _.addLines(actor, orderId, v)))
      : withInput(b, NewOrderLine, input, (actor, v) => Effect.flatMap(Orders, (_) => _.addLines(actor, orderId, v))),
  updateLine: (orderId: string, line: number, input: Encoded<typeof OrderLineUpdate>) =>
    withInput(b, OrderLineUpdate, input, (actor, v) =>
      Effect.flatMap(Orders, (_) => _.updateLine(actor, orderId, line, v))),
  removeLine: (orderId: string, line: number) =>
    call(b, (actor) => Effect.flatMap(Orders, (_) => _.removeLine(actor, orderId, line))),
  /** Ships what was picked of the order (`POST /orders/:id/ship`). */
  ship: (orderId: string) => call(b, (actor) => Effect.flatMap(Picking, (_) => _.ship(actor, orderId)))
})

type PreAdvicePage = Parameters<PreAdvices["list"]>[1]

const preAdvicesOf = (b: Binding) => ({
  list: (page?: PreAdvicePage) => call(b, (actor) => Effect.flatMap(PreAdvices, (_) => _.list(actor, page))),
  get: (id: string) => call(b, (actor) => Effect.flatMap(PreAdvices, (_) => _.get(actor, id))),
  create: (input: Encoded<typeof NewPreAdvice>) =>
    withInput(b, NewPreAdvice, input, (actor, v) => Effect.flatMap(PreAdvices, (_) => _.create(actor, v))),
  update: (id: string, input: Encoded<typeof PreAdviceChanges>) =>
    withInput(b, PreAdviceChanges, input, (actor, v) => Effect.flatMap(PreAdvices, (_) => _.update(actor, id, v))),
  remove: (id: string) => call(b, (actor) => Effect.flatMap(PreAdvices, (_) => _.remove(actor, id))),
  lines: (id: string, page?: PreAdvicePage) =>
    call(b, (actor) => Effect.flatMap(PreAdvices, (_) => _.listLines(actor, id, page))),
  line: (id: string, line: number) => call(b, (actor) => Effect.flatMap(PreAdvices, (_) => _.getLine(actor, id, line))),
  /** Adds one line or an array of lines. */
  addLines: (id: string, input: Encoded<typeof PreAdviceLinesPayload>) =>
    withInput(b, PreAdviceLinesPayload, input, (actor, v) =>
      Effect.flatMap(PreAdvices, (_) => _.addLines(actor, id, v))),
  updateLine: (id: string, line: number, input: Encoded<typeof PreAdviceLineChanges>) =>
    withInput(b, PreAdviceLineChanges, input, (actor, v) =>
      Effect.flatMap(PreAdvices, (_) => _.updateLine(actor, id, line, v))),
  removeLine: (id: string, line: number) =>
    call(b, (actor) => Effect.flatMap(PreAdvices, (_) => _.removeLine(actor, id, line))),
  /** Receives the given lines, or without `lines` everything still expected, into stock. */
  receive: (id: string, input: Encoded<typeof ReceiptRequest> = {}) =>
    withInput(b, ReceiptRequest, input, (actor, v) => Effect.flatMap(Receiving, (_) => _.receive(actor, id, v)))
})

const inventoryOf = (b: Binding) => ({
  overview: () => call(b, (actor) => Effect.flatMap(Inventory, (_) => _.overview(actor))),
  content: (contentId: number) => call(b, (actor) => Effect.flatMap(Inventory, (_) => _.content(actor, contentId))),
  transactions: () => call(b, (actor) => Effect.flatMap(Inventory, (_) => _.transactions(actor))),
  transaction: (id: number) => call(b, (actor) => Effect.flatMap(Inventory, (_) => _.transaction(actor, id))),
  lostAndFound: () => call(b, (actor) => Effect.flatMap(Inventory, (_) => _.lostAndFound(actor))),
  lostAndFoundItem: (id: number) => call(b, (actor) => Effect.flatMap(Inventory, (_) => _.lostAndFoundItem(actor, id))),
  /** A stock adjustment: `{content_id, qty}` or `{sku_id, loc_id, tag_id?, expiry_date?, qty}`. */
  adjust: (input: Encoded<typeof AdjustmentRequest>) =>
    withInput(b, AdjustmentRequest, input, (actor, v) => Effect.flatMap(Inventory, (_) => _.adjust(actor, v)))
})

const waveDefinitionsOf = (b: Binding) => ({
  list: (window?: ListWindow) => call(b, (actor) => Effect.flatMap(WaveDefinitions, (_) => _.list(actor, window))),
  get: (id: number) => call(b, (actor) => Effect.flatMap(WaveDefinitions, (_) => _.get(actor, id))),
  /** Resolves to the new definition's id. */
  create: (input: Encoded<typeof WaveDefinitionInput>) =>
    withInput(b, WaveDefinitionInput, input, (actor, v) => Effect.flatMap(WaveDefinitions, (_) => _.create(actor, v))),
  update: (id: number, input: Encoded<typeof WaveDefinitionInput>) =>
    withInput(b, WaveDefinitionInput, input, (actor, v) =>
      Effect.flatMap(WaveDefinitions, (_) => _.update(actor, id, v))),
  remove: (id: number) => call(b, (actor) => Effect.flatMap(WaveDefinitions, (_) => _.remove(actor, id)))
})

const wavesOf = (b: Binding) => ({
  /** Creates a wave from a definition: `{message, wave_id}`. */
  create: (wavedefId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.create(actor, wavedefId))),
  /** Allocates the wave's orders and creates its pick tasks: `{message}`. */
  start: (waveId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.start(actor, waveId))),
  list: () => call(b, (actor) => Effect.flatMap(Waves, (_) => _.list(actor))),
  get: (waveId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.get(actor, waveId))),
  /** Releases the wave's allocation and removes it; once picking has started, a `WavePickingStarted`. */
  remove: (waveId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.remove(actor, waveId))),
  orders: (waveId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.orders(actor, waveId))),
  claimsets: (waveId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.claimsets(actor, waveId))),
  claims: (waveId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.claims(actor, waveId))),
  tasks: (waveId: number) => call(b, (actor) => Effect.flatMap(Waves, (_) => _.tasks(actor, waveId)))
})

const tasksOf = (b: Binding) => ({
  /** The scope's open pick tasks, optionally of one wave or SKU. */
  list: (query: TaskQuery = {}) => call(b, (actor) => Effect.flatMap(Picking, (_) => _.tasks(actor, query))),
  /** Confirms a pick: the whole task, or `{ qty }` for a short pick (the rest is lost). */
  confirm: (taskId: number, input: Encoded<typeof ConfirmTaskRequest> = {}) =>
    withInput(b, ConfirmTaskRequest, input, (actor, v) => Effect.flatMap(Picking, (_) => _.confirm(actor, taskId, v)))
})

const webhooksOf = (b: Binding) => ({
  list: (window?: ListWindow) => call(b, (actor) => Effect.flatMap(Webhooks, (_) => _.list(actor, window))),
  get: (id: number) => call(b, (actor) => Effect.flatMap(Webhooks, (_) => _.get(actor, id))),
  create: (input: Encoded<typeof WebhookInput>) =>
    withInput(b, WebhookInput, input, (actor, v) => Effect.flatMap(Webhooks, (_) => _.create(actor, v))),
  update: (id: number, input: Encoded<typeof WebhookInput>) =>
    withInput(b, WebhookInput, input, (actor, v) => Effect.flatMap(Webhooks, (_) => _.update(actor, id, v))),
  remove: (id: number) => call(b, (actor) => Effect.flatMap(Webhooks, (_) => _.remove(actor, id))),
  /** The webhook's delivery log, newest first. */
  deliveries: (id: number, window?: ListWindow) =>
    call(b, (actor) => Effect.flatMap(Webhooks, (_) => _.deliveries(actor, id, window)))
})

const subscribe = (run: Run) => (eventType: EventType | "*", handler: (event: EventPayload) => void | Promise<void>) =>
  run(Effect.gen(function*() {
    const scope = yield* Scope.make()
    const subscriptions = yield* EventSubscriptions
    yield* Scope.extend(
      subscriptions.subscribe(eventType, (event) => Effect.tryPromise(async () => handler(event))),
      scope
    )
    return () => run(Scope.close(scope, Exit.void))
  }))

const scopeOf = (run: Run, scope: ActAs): WarehouseScope => {
  const actor = scope.user === undefined ? systemActor(scope.site) : userActor(scope.user, scope.site)
  const b: Binding = { run, actor }
  return {
    scope,
    as: (next) => scopeOf(run, next),
    sites: sitesOf(b),
    clients: clientsOf(b),
    users: usersOf(b),
    customers: partnersOf(b, "customers"),
    suppliers: partnersOf(b, "suppliers"),
    carriers: carriersOf(b),
    skus: skusOf(b),
    skuGroups: skuGroupsOf(b),
    pickMethods: { list: (window = {}) => call(b, () => Effect.succeed(listPickMethods(window))) },
    orders: ordersOf(b),
    preadvices: preAdvicesOf(b),
    inventory: inventoryOf(b),
    waveDefinitions: waveDefinitionsOf(b),
    waves: wavesOf(b),
    tasks: tasksOf(b),
    webhooks: webhooksOf(b)
  }
}

/**
 * Opens (and migrates) the database and returns the warehouse acting on `options.site` (default
 * `main`, created when missing). Call `close()` when done.
 */
export const createWarehouse = async (options: CreateWarehouseOptions): Promise<WarehouseClient> => {
  const warehouse = Warehouse.layer(options)
  const runtime = ManagedRuntime.make(
    options.worker === false ? warehouse : Layer.provideMerge(WebhookWorker.layer, warehouse)
  )
  const run = runner(runtime)
  const site = options.site ?? "main"
  try {
    await run(ensureSite(site))
  } catch (error) {
    await runtime.dispose()
    throw error
  }
  return {
    ...scopeOf(run, { site, ...(options.user === undefined ? {} : { user: options.user }) }),
    run,
    events: { subscribe: subscribe(run) },
    close: () => runtime.dispose()
  }
}
