/**
 * The bundled server: the API on Node's HTTP server, with the OpenAPI document at
 * `/openapi.json`, its rendering at `/docs` (no network needed), and the bootstrap of an empty
 * database.
 */
import { HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Administration, SiteId } from "@wms/core"
import { Effect, Layer, Option, Redacted } from "effect"
import type { Server } from "node:http"
import * as LoginThrottle from "../auth/LoginThrottle.js"
import * as Tokens from "../auth/Tokens.js"
import * as HotRoutes from "../derived/HotRoutes.js"
import * as HttpApiLive from "../derived/HttpApiLive.js"
import * as Readiness from "../features/system/Readiness.js"
import { bodyLimit, createNodeServer } from "../middleware/BodyLimit.js"
import * as AccessLog from "../observability/AccessLog.js"
import * as Metrics from "../observability/Metrics.js"
import * as Tracing from "../observability/Tracing.js"
import * as Warehouse from "../Warehouse.js"
import * as WebhookWorker from "../workers/WebhookWorker.js"
import type { ServerConfig } from "./Config.js"

/** Creates the first site and admin on an empty database; prints a generated password once. */
export const bootstrap = (config: ServerConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const administration = yield* Administration
    const created = yield* administration.bootstrap({
      siteId: SiteId.make(config.bootstrapSite),
      adminEmail: config.bootstrapAdminEmail,
      adminPassword: Option.map(config.bootstrapAdminPassword, Redacted.value)
    })
    if (Option.isNone(created)) return
    const { email, generatedPassword } = created.value
    // A generated password is a warning: shown whatever the log level, and to be changed.
    yield* Option.match(generatedPassword, {
      onNone: () => Effect.logInfo(`Created site ${config.bootstrapSite} and admin ${email}`),
      onSome: (password) =>
        Effect.logWarning(
          `Created site ${config.bootstrapSite} and admin ${email} with password ${password} (shown once)`
        )
    })
  }))

export { createNodeServer } from "../middleware/BodyLimit.js"

const services = (config: ServerConfig) =>
  Layer.mergeAll(Tokens.layer(config.jwtSecret), bootstrap(config), WebhookWorker.layer).pipe(
    Layer.provideMerge(Warehouse.layer({
      database: config.databaseUrl,
      timeZone: config.timeZone,
      passwordHashCost: config.passwordHashCost,
      allowPrivateWebhookTargets: config.webhookAllowPrivate
    }))
  )

/** Access lines and metrics, shared by the API and the front of its hot routes. */
const observedOf = (config: ServerConfig): AccessLog.AccessLogOptions => ({
  accessLog: config.accessLog,
  metrics: config.metrics ? Metrics.make() : undefined
})

// Unless traces are exported (`Tracing`), the server makes no spans: on effect 3 each is costly
// (docs/PERFORMANCE.md, HTTP), and a request would open one for itself and one per SQL statement.
const api = (config: ServerConfig, observed: AccessLog.AccessLogOptions) => {
  const tracing = Option.isSome(config.otlpEndpoint)
  return HttpApiBuilder.serve((app) => AccessLog.middleware(observed)(bodyLimit(app))).pipe(
    HttpMiddleware.withTracerDisabledWhen(() => !tracing),
    Layer.provide(Tracing.layer(config)),
    Layer.provide(HttpApiScalar.layer({ path: "/docs", scalar: { withDefaultFonts: false } })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(observed.metrics === undefined ? Layer.empty : Metrics.route(observed.metrics, config.metricsToken)),
    Layer.provide(HttpApiLive.layer),
    Layer.provide(Layer.succeed(LoginThrottle.LoginThrottleOptionsRef, config.loginThrottle))
  )
}

/**
 * The API, its documentation, the warehouse services and the webhook worker, without the HTTP
 * server itself. The services (and the store's `SqlClient`) stay in the output for whoever serves it
 * (on `createNodeServer`, so that a chunked body over the limit gets its 413). Like the
 * bundled server it makes no spans; `HttpApiLive.layer` serves the API with whatever tracer the
 * application provides. The hot routes' node:http front (`HotRoutes`) is the bundled server's own.
 */
export const app = (config: ServerConfig) =>
  Layer.unwrapEffect(Effect.sync(() => api(config, observedOf(config)))).pipe(Layer.provideMerge(services(config)))

/** How long a stopping server waits for the requests in flight before it closes their connections. */
const drainMillis = 10_000

/**
 * Stopping (the layer's scope closes, as on SIGTERM or SIGINT under `NodeRuntime.runMain`): `/ready`
 * answers 503 at once; the port closes while the requests in flight finish, for at most
 * `drainMillis`; then the webhook worker stops and the database closes.
 */
const draining = (server: () => Server | undefined, readiness: Readiness.ReadinessState) =>
  Layer.scopedDiscard(Effect.addFinalizer(() =>
    Effect.sync(() => {
      readiness.stopping = true
      const running = server()
      if (running === undefined) return
      running.closeIdleConnections()
      setTimeout(() => running.closeAllConnections(), drainMillis).unref()
    })
  ))

/**
 * The whole server, listening on the configured host and port, with the hot routes answered by
 * their node:http front (`HotRoutes`) unless traces are exported (then every request goes through
 * the `HttpApi`, which makes its span). The store is migrated and bootstrapped before the port
 * opens: a request accepted before the API is mounted is never answered. The services and the
 * `HttpServer` stay in the output, for tests that call the server or the engine beside it.
 */
export const layer = (config: ServerConfig) =>
  Layer.unwrapEffect(Effect.sync(() => {
    const observed = observedOf(config)
    const readiness = Readiness.make()
    let server: Server | undefined
    let front: HotRoutes.Front | undefined
    const hotRoutes = Option.isSome(config.otlpEndpoint)
      ? Layer.empty
      : Layer.effectDiscard(Effect.map(HotRoutes.make(observed), (made) => {
        front = made
      }))
    return api(config, observed).pipe(
      Layer.merge(hotRoutes),
      Layer.merge(draining(() => server, readiness)),
      HttpServer.withLogAddress,
      Layer.provideMerge(NodeHttpServer.layer(() => (server = HotRoutes.install(
        createNodeServer({
          requestTimeoutMillis: config.requestTimeoutSeconds * 1000
        }),
        () => front
      )), {
        port: config.port,
        host: Option.getOrUndefined(config.host)
      })),
      Layer.provideMerge(services(config)),
      Layer.provide(Layer.succeed(Readiness.Readiness, readiness))
    )
  }))
