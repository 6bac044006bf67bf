/**
 * The real server layer on a real Node HTTP server (random loopback port) for API tests, with a
 * small client that speaks raw HTTP so tests see exactly what integrators see.
 */
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { type Config, Server } from "@wms/http"
import { Clock, Context, Effect, Layer, LogLevel, Option, Redacted } from "effect"
import { onApiTestStores, onBothStores, type TestDatabase } from "./databases.js"

export const adminEmail = "admin@example.com"
export const adminPassword = "admin-password"
export const jwtSecret = "test-secret-of-at-least-32-bytes!!"

export const testConfig = (databaseUrl: string) => ({
  port: 0,
  host: Option.some("127.0.0.1"),
  databaseUrl,
  jwtSecret: Option.some(Redacted.make(jwtSecret)),
  timeZone: "UTC",
  bootstrapSite: "main",
  bootstrapAdminEmail: adminEmail,
  bootstrapAdminPassword: Option.some(Redacted.make(adminPassword)),
  // The lowest cost allowed: tests log in hundreds of times. The default cost is tested on its own.
  passwordHashCost: 14,
  loginThrottle: { maxFailuresPerEmail: 5, maxFailuresPerAddress: 50, windowSeconds: 900 },
  accessLog: false,
  metrics: true,
  metricsToken: Option.none(),
  logLevel: LogLevel.Info,
  otlpEndpoint: Option.none(),
  serviceName: "wms",
  // The production default; tests that deliver to a receiver on loopback allow private targets.
  webhookAllowPrivate: false,
  requestTimeoutSeconds: 300
})

export interface RequestOptions {
  readonly token?: string
  readonly site?: string
  /** Sent as JSON. */
  readonly body?: unknown
  /** Sent as is, with `content-type: application/json` or `contentType`. */
  readonly rawBody?: string
  /** The content type of `rawBody`; `""` sends none. */
  readonly contentType?: string
  readonly headers?: Record<string, string>
}

export interface TestResponse {
  readonly status: number
  readonly headers: Record<string, string>

  readonly body: any
}

export class Api extends Context.Tag("testing/Api")<Api, {
  readonly request: (
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    options?: RequestOptions
  ) => Effect.Effect<TestResponse>
  /** Logs in and returns the token. */
  readonly login: (email?: string, password?: string) => Effect.Effect<string>
  /** The userId of the bootstrap admin, for tokens a test signs itself. */
  readonly adminUserId: Effect.Effect<string>
}>() {}

/** The raw client on the `HttpClient` of the test server, captured when the layer is built. */
export const apiLayer = Layer.effect(
  Api,
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request: Api["Type"]["request"] = (method, path, options = {}) =>
      Effect.gen(function*() {
        let req = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeaders(options.headers ?? {}))
        if (options.token !== undefined) req = HttpClientRequest.bearerToken(req, options.token)
        if (options.site !== undefined) req = HttpClientRequest.setHeader(req, "site", options.site)
        if (options.rawBody !== undefined) {
          req = HttpClientRequest.bodyText(req, options.rawBody, options.contentType ?? "application/json")
        } else if (options.body !== undefined) req = yield* HttpClientRequest.bodyJson(req, options.body)
        const response = yield* client.execute(req)
        const text = yield* response.text
        return {
          status: response.status,
          headers: response.headers,
          body: text === "" ? undefined : JSON.parse(text)
        }
      }).pipe(Effect.scoped, Effect.orDie)
    return Api.of({
      request,
      login: (email = adminEmail, password = adminPassword) =>
        Effect.map(request("POST", "/login", { body: { email, password } }), (response) => {
          if (response.status !== 200) throw new Error(`login of ${email} failed: ${JSON.stringify(response.body)}`)
          return response.body.token as string
        }),
      adminUserId: Effect.map(
        request("POST", "/login", { body: { email: adminEmail, password: adminPassword } }),
        (response) => response.body.userId as string
      )
    })
  })
)

/**
 * The bundled server (`Server.layer`, with the node:http front of its hot routes) on a loopback
 * port, with `Api` to call it. The server runs on the real clock even inside `layer(…)`, whose
 * TestClock would otherwise stamp every record in 1970.
 */
export const testServer = (databaseUrl: string, overrides: Partial<Config.ServerConfig> = {}) =>
  apiLayer.pipe(
    Layer.provideMerge(HttpServer.layerTestClient),
    Layer.provide(NodeHttpClient.layerWithoutAgent),
    Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
    Layer.provideMerge(Server.layer({ ...testConfig(databaseUrl), ...overrides })),
    Layer.provide(Layer.setClock(Clock.make()))
  )

/** The server's `WMS_DATABASE_URL` for a test database. */
export const databaseUrl = (db: TestDatabase) => db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url

/** The test server on a fresh SQLite file and on a fresh PostgreSQL database, for what a store decides. */
export const serverOnBothStores = onBothStores((db) => testServer(databaseUrl(db)))

/** The test server for what the API does whatever its store: on SQLite, or both with `WMS_TEST_STORES=both`. */
export const serverOnApiTestStores = onApiTestStores((db) => testServer(databaseUrl(db)))
