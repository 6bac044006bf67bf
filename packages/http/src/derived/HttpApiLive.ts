/**
 * The API with its handlers, as a layer that any @effect/platform server can serve: the bundled
 * one (`Server.ts`) or an application's own, with `HttpApiBuilder.serve()` or `toWebHandler`.
 */
import { HttpApiBuilder, type HttpApp, type HttpRouter, HttpServerRequest } from "@effect/platform"
import type { Actor, Forbidden, Unauthenticated } from "@wms/core"
import { Effect, Layer } from "effect"
import { WarehouseApi } from "../Api.js"
import { Authorization } from "../api/Security.js"
import { bodyLimit } from "../middleware/BodyLimit.js"
import * as ErrorResponses from "../middleware/ErrorResponses.js"
import { AuthHandlers } from "../features/auth/AuthHandlers.js"
import { ImportExportHandlers } from "../features/import-export/ImportExportHandlers.js"
import { AdminAuthorizationLive, AuthorizationLive, TokenAuthenticationLive } from "../auth/SecurityLive.js"
import { SystemHandlers } from "../features/system/SystemHandlers.js"
import { toHttpApi } from "../features/Table.js"
import { tables } from "../features/index.js"
import * as Idempotency from "../middleware/Idempotency.js"

/** The handlers of every group: those that need no caller, and the features' tables. */
const handlers = Layer.mergeAll(
  SystemHandlers,
  AuthHandlers,
  toHttpApi("admin", tables.admin),
  toHttpApi("orders", tables.orders),
  toHttpApi("preadvices", tables.preadvices),
  toHttpApi("customers", tables.customers),
  toHttpApi("suppliers", tables.suppliers),
  toHttpApi("carriers", tables.carriers),
  toHttpApi("skus", tables.skus),
  toHttpApi("skugroups", tables.skugroups),
  toHttpApi("pickmethods", tables.pickmethods),
  toHttpApi("inventory", tables.inventory),
  toHttpApi("receiving", tables.receiving),
  toHttpApi("locations", tables.locations),
  toHttpApi("movementTasks", tables.movementTasks),
  toHttpApi("counts", tables.counts),
  toHttpApi("pickFaces", tables.pickFaces),
  toHttpApi("replenishment", tables.replenishment),
  toHttpApi("waveDefinitions", tables.waveDefinitions),
  toHttpApi("waves", tables.waves),
  toHttpApi("picking", tables.picking),
  toHttpApi("webhooks", tables.webhooks),
  ImportExportHandlers
)

const withAuthorization = <R>(authorization: Layer.Layer<Authorization, never, R>) => {
  const security = Layer.merge(AdminAuthorizationLive.pipe(Layer.provideMerge(authorization)), TokenAuthenticationLive)
  return HttpApiBuilder.api(WarehouseApi).pipe(
    Layer.provide(handlers),
    Layer.provide([security, ErrorResponses.layer, Idempotency.layer.pipe(Layer.provide(security))])
  )
}

/** Needs the warehouse services (`Warehouse.layer`) and `Tokens`. */
export const layer = withAuthorization(AuthorizationLive)

/**
 * Who a request acts as, in place of the bearer token and the `site` header: an application's own
 * authentication. It may fail with `Unauthenticated` (401) or `Forbidden` (403); `systemActor`,
 * `userActor` and `Administration.actorFor` of `@wms/core` turn what it knows into an `Actor`.
 */
export type Authorize<R> = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<Actor, Unauthenticated | Forbidden, R>

/**
 * The API with the application's own authorization hook in place of the JWT check on every
 * endpoint that acts in a scope. `/login` and `/verifytoken` still issue and check the engine's
 * tokens, so `Tokens` is still needed. The hook's requirements are taken from the layer's context.
 */
export const layerWith = <R = never>(options: { readonly authorization: Authorize<R> }) =>
  withAuthorization(Layer.effect(
    Authorization,
    Effect.map(Effect.context<R>(), (context) =>
      Authorization.of({
        bearer: () =>
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
            Effect.provide(options.authorization(request), context))
      }))
  ))

/** The mounted API: an `HttpApp` that needs only the platform services every server provides. */
export type Mounted = HttpApp.Default<never, HttpRouter.HttpRouter.DefaultServices>

/**
 * The API as an `HttpApp` with its own router, error responses and 1 MiB body limit, to mount
 * under a prefix of an application's router: `HttpRouter.mountApp("/wms", app)` (the prefix is
 * stripped before the API sees the path). Built from `layer`, or `layerWith(options)` when given.
 */
export const httpApp = <R = never>(options?: { readonly authorization: Authorize<R> }) =>
  Effect.flatMap(
    Layer.build(
      (options === undefined ? layer : layerWith(options)).pipe(
        Layer.provideMerge(Layer.mergeAll(HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer))
      )
    ),
    (context) => Effect.map(Effect.provide(HttpApiBuilder.httpApp, context), (app): Mounted => bodyLimit(app))
  )
