/**
 * The API with its handlers, as a layer that any @effect/platform server can serve: the bundled
 * one (`Server.ts`) or an application's own, with `HttpApiBuilder.serve()` or `toWebHandler`.
 */
import { HttpApiBuilder, type HttpApiGroup, type HttpApp, type HttpRouter, HttpServerRequest } from "@effect/platform"
import type { Actor, Forbidden, Unauthenticated } from "@wms/core"
import { Effect, Layer, type Scope } from "effect"
import { type GroupName, WarehouseApi } from "../Api.js"
import { Authorization } from "../api/Security.js"
import { AdminAuthorizationLive, AuthorizationLive, TokenAuthenticationLive } from "../auth/SecurityLive.js"
import type { HandlersOf } from "../features/Feature.js"
import { features } from "../features/index.js"
import { bodyLimit } from "../middleware/BodyLimit.js"
import * as ErrorResponses from "../middleware/ErrorResponses.js"
import * as Idempotency from "../middleware/Idempotency.js"
import { type Entries, toHttpApi } from "./TableHandlers.js"

/** What a feature's handlers need, and how they may fail to be built. */
type Needs<H> = H extends { readonly table: Effect.Effect<infer _A, infer _E, infer R> } ? R
  : H extends (handlers: never) => infer Return ? HttpApiBuilder.Handlers.Context<Return>
  : never
type Fails<H> = H extends { readonly table: Effect.Effect<infer _A, infer E, infer _R> } ? E
  : H extends (handlers: never) => infer Return ? HttpApiBuilder.Handlers.Error<Return>
  : never

type Handlers = HandlersOf<(typeof features)[number]>
type Middleware = HttpApiGroup.HttpApiGroup.Middleware<(typeof features)[number]["group"]>

/** The handlers of a feature's group: its table through `toHttpApi`, or the platform's builder. */
const handlersOf = ({ group, handlers }: (typeof features)[number]) =>
  Layer.unwrapEffect(Effect.map(Effect.promise<unknown>(handlers), (loaded) =>
    typeof loaded === "function"
      ? HttpApiBuilder.group(WarehouseApi, group.identifier as GroupName, loaded as never)
      : toHttpApi(group.identifier, (loaded as { readonly table: Effect.Effect<Entries, unknown, unknown> }).table)))

/** The handlers of every group, from the features. */
const handlers = Layer.mergeAll(
  ...(features.map(handlersOf) as [ReturnType<typeof handlersOf>])
) as Layer.Layer<
  HttpApiGroup.ApiGroup<"warehouse", GroupName>,
  Fails<Handlers>,
  Exclude<Needs<Handlers> | Middleware, Scope.Scope>
>

const withAuthorization = <R>(authorization: Layer.Layer<Authorization, never, R>) => {
  const security = Layer.merge(AdminAuthorizationLive.pipe(Layer.provideMerge(authorization)), TokenAuthenticationLive)
  // A middleware added later wraps those before it: `Idempotency` is added first, so it sees the
  // routes' failures as they are, and a deadlock reaches the retry of its transaction before the
  // error responses turn it into a 500.
  const middlewares = ErrorResponses.layer.pipe(Layer.provide(Idempotency.layer.pipe(Layer.provide(security))))
  return HttpApiBuilder.api(WarehouseApi).pipe(
    Layer.provide(handlers),
    Layer.provide([security, middlewares])
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
