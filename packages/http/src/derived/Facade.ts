/**
 * The engine for applications that do not use Effect: every operation of the API as a method that
 * returns a Promise. A failure rejects with the core's tagged error itself, with its data
 * (`OrderNotFound { orderId }`, `WaveStarted { waveId }`, …, or `InvalidInput`, `Forbidden`,
 * `Unauthenticated`), so `instanceof` and `_tag` work, `category` names its status family
 * (`isNotFound(error)`), and `message` is the text the REST API would answer.
 *
 * ```ts
 * const wms = await createWarehouse({ database: "sqlite:./wms.db" })
 * await wms.skus.createSku({ sku_id: "APPLE", description: "Apple" })
 * await wms.orders.createOrder({ order_id: "SO-1", lines: [{ sku_id: "APPLE", qty: 3 }] })
 * const north = wms.as({ site: "north" })   // another site, or a client of a fulfillment site
 * await wms.close()
 * ```
 *
 * The namespaces are the groups with a table and the methods their endpoints, by the same names as
 * in the typed client; the names of 0.1 are deprecated aliases (`FormerNames.ts`). Each method
 * calls an endpoint's entry in its feature's table (`features/index.ts`), after the
 * checks the server makes, taken from the API declaration: the caller's scope (and admin rights
 * for an admin group), then the endpoint's path, body and query schemas, so a bad input rejects
 * with the same 400 message (`Missing field order_id`). Bodies are the REST API's JSON; path and
 * query values are given as typed (`orders.getOrderLine("SO-1", 2)`) and checked as the server checks
 * them once a client has written them into the URL. The namespaces act as trusted code (see
 * `systemActor` in `@wms/core`): as the system, an admin, unless a `user` is named.
 */
import { HttpApi } from "@effect/platform"
import {
  type Actor,
  decodeInput,
  ensureSite,
  type EventPayload,
  EventSubscriptions,
  type EventType,
  systemActor,
  Tenancy,
  userActor
} from "@wms/core"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Option, ParseResult, Schema, Scope } from "effect"
import { WarehouseApi } from "../Api.js"
import { AdminAuthorization } from "../api/Security.js"
import type { Feature, HandlersOf, TableHandlers } from "../features/Feature.js"
import { features } from "../features/index.js"
import * as Warehouse from "../Warehouse.js"
import * as WebhookWorker from "../workers/WebhookWorker.js"
import { formerNames } from "./FormerNames.js"

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

/** The features whose handlers are a table: the groups the facade offers. */
type TableFeature = Extract<(typeof features)[number], Feature<any, TableHandlers<any>>>

/** The handlers of those features, by group. */
type Loaded = { readonly [F in TableFeature as F["group"]["identifier"]]: HandlersOf<F> }

/** The facade's methods, by group and endpoint. */
type Methods = { readonly [G in keyof Loaded]: Loaded[G]["methods"] }

type FormerNames = typeof formerNames

/** What the table entry behind endpoint `E` of group `G` succeeds with. */
type Result<G extends keyof Loaded, E> = Loaded[G]["table"] extends Effect.Effect<infer Table, infer _E, infer _R> ?
  E extends keyof Table ? Table[E] extends (actor: Actor, input: never) => Effect.Effect<infer A, infer _E> ? A : never
  : never
  : never

/** The groups with a caller: their tables, on the warehouse's services, and the facade's methods. */
const loadFeatures = async () => {
  const loaded = await Promise.all(
    features.map(async ({ group, handlers }) => [group.identifier, await handlers()] as const)
  )
  const tables = loaded.flatMap(([group, handlers]) =>
    typeof handlers === "function" ? [] : [[group, handlers] as const]
  )
  return {
    tables: Object.fromEntries(tables.map(([group, { table }]) => [group, table])) as Record<
      string,
      Effect.Effect<Entries[string], never, WarehouseServices>
    >,
    methods: Object.fromEntries(tables.map(([group, { methods }]) => [group, methods])) as Inputs
  }
}

/** The method of endpoint `E` of group `G` as the caller sees it. */
export type Method<G extends keyof Methods, E extends keyof Methods[G]> = Methods[G][E] extends
  (...args: infer Args) => unknown ? (...args: Args) => Promise<Result<G, E>> : never

/** Every operation of the API by group, and the names they had before (deprecated). */
export type Namespaces =
  & { readonly [G in keyof Methods]: { readonly [E in keyof Methods[G]]: Method<G, E> } }
  & {
    readonly [N in keyof FormerNames]: {
      readonly [M in keyof FormerNames[N]]: FormerNames[N][M] extends readonly [infer G, infer E] ?
        G extends keyof Methods ? E extends keyof Methods[G] ? Method<G, E> : never : never
        : never
    }
  }

/** Every operation of the API, acting in one scope. */
export interface WarehouseScope extends Namespaces {
  /** Where and as whom these namespaces act. */
  readonly scope: ActAs
  /** The same operations in another scope (the same database and services). */
  readonly as: (scope: ActAs) => WarehouseScope
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
const runner =
  (runtime: ManagedRuntime.ManagedRuntime<WarehouseServices, never>) =>
  <A, E>(effect: Effect.Effect<A, E, WarehouseServices>): Promise<A> =>
    runtime.runPromiseExit(effect).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    })

type Run = ReturnType<typeof runner>

/** The built tables as the facade reads them, by group and endpoint name. */
type Entries = Record<string, Record<string, (actor: Actor, input: never) => Effect.Effect<unknown, unknown>>>

/** An endpoint's input as a method makes it, before the endpoint's schemas. */
interface Given {
  readonly path?: unknown
  readonly urlParams?: unknown
  readonly payload?: unknown
}

/** The facade's methods as the builder reads them, by group and endpoint: their types were checked against the declaration. */
type Inputs = Readonly<Record<string, Readonly<Record<string, (...args: Array<never>) => Given>>>>

/** An endpoint's table entry behind the checks the server makes first. */
type Checked = (actor: Actor, given: Given) => Effect.Effect<unknown, unknown>

/**
 * `schema` as the server applies it to a value a client wrote into the URL with it: encoded, then
 * decoded, so that `line_id: 1.5` fails as `/lines/1.5` does.
 */
const asSent = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.transformOrFail(Schema.Unknown, Schema.typeSchema(schema), {
    strict: true,
    decode: (value) => ParseResult.flatMap(ParseResult.encodeUnknown(schema)(value), ParseResult.decodeUnknown(schema)),
    encode: ParseResult.succeed
  })

/**
 * Every endpoint of the tables behind the server's checks, in the server's order, by
 * `group.endpoint`: admin rights for an admin group, then the path, body and query schemas, with
 * the API's messages. The walk over the declaration is the one `HttpApiClient.make` makes.
 */
const checkedEndpoints = (entries: Entries) => {
  const checked = new Map<string, Checked>()
  HttpApi.reflect(WarehouseApi, {
    predicate: ({ group }) => group.identifier in entries,
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, middleware }) => {
      const entry = entries[group.identifier]![endpoint.name]!
      const admin = (middleware as ReadonlySet<unknown>).has(AdminAuthorization)
      const path = Option.map(endpoint.pathSchema, asSent)
      const payload = endpoint.payloadSchema
      const urlParams = Option.map(endpoint.urlParamsSchema, asSent)
      checked.set(`${group.identifier}.${endpoint.name}`, (actor, given) =>
        Effect.gen(function*() {
          if (admin) yield* Tenancy.requireAdmin(actor)
          const input: Given = {
            ...(Option.isSome(path) ? { path: yield* decodeInput(path.value, given.path) } : {}),
            ...(Option.isSome(payload) ? { payload: yield* decodeInput(payload.value, given.payload) } : {}),
            ...(Option.isSome(urlParams) ? { urlParams: yield* decodeInput(urlParams.value, given.urlParams) } : {})
          }
          return yield* entry(actor, input as never)
        }))
    }
  })
  return checked
}

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

// The former names as the builder reads them, their types having been checked against the declaration.
const formerTargets: Readonly<Record<string, Readonly<Record<string, readonly [string, string]>>>> = formerNames

const scopeOf = (run: Run, endpoints: ReadonlyMap<string, Checked>, inputs: Inputs, scope: ActAs): WarehouseScope => {
  // The site is checked before the input, as over HTTP (403 before 400).
  const actor = scope.user === undefined ? systemActor(scope.site) : userActor(scope.user, scope.site)
  const method = (group: string, endpoint: string, input: (...args: Array<never>) => Given) => {
    const checked = endpoints.get(`${group}.${endpoint}`)!
    return (...args: Array<never>) => run(Effect.flatMap(actor, (caller) => checked(caller, input(...args))))
  }
  const namespaces: Record<string, Record<string, unknown>> = Object.fromEntries(
    Object.entries(inputs).map(([group, namespace]) => [
      group,
      Object.fromEntries(
        Object.entries(namespace).map(([endpoint, input]) => [endpoint, method(group, endpoint, input)])
      )
    ])
  )
  for (const [name, namespace] of Object.entries(formerTargets)) {
    namespaces[name] = {
      ...namespaces[name],
      ...Object.fromEntries(
        Object.entries(namespace).map(([former, [group, endpoint]]) => [former, namespaces[group]![endpoint]])
      )
    }
  }
  return { ...(namespaces as unknown as Namespaces), scope, as: (next) => scopeOf(run, endpoints, inputs, next) }
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
  const { methods, tables } = await loadFeatures()
  let endpoints: ReadonlyMap<string, Checked>
  try {
    endpoints = checkedEndpoints(await run(Effect.all(tables)))
    await run(ensureSite(site))
  } catch (error) {
    await runtime.dispose()
    throw error
  }
  return {
    ...scopeOf(run, endpoints, methods, { site, ...(options.user === undefined ? {} : { user: options.user }) }),
    run,
    events: { subscribe: subscribe(run) },
    close: () => runtime.dispose()
  }
}
