import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { Server, WarehouseApi } from "@wms/http"
import { Cause, Effect, Layer, Logger, LogLevel, Option, Schema } from "effect"
import { type ClientRequest, request as httpRequest } from "node:http"
import { onApiTestStores } from "../../../testing/databases.js"
import { adminEmail, adminPassword, testConfig } from "../../../testing/server.js"
import * as ErrorResponses from "../src/middleware/ErrorResponses.js"

/** What the servers below log at level Error or above. */
const errorsLogged: Array<string> = []

const captureErrors = Logger.add(Logger.make(({ cause, logLevel, message }) => {
  if (LogLevel.greaterThanEqual(logLevel, LogLevel.Error)) {
    errorsLogged.push(`${JSON.stringify(message)} ${Cause.pretty(cause)}`)
  }
}))

// The bundled server itself, so the hot routes' node:http front (`HotRoutes`) meets every case too.
const servers = onApiTestStores((db) =>
  Server.layer(testConfig(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url)).pipe(Layer.provide(captureErrors))
)

/** Every endpoint with a body, its path parameters filled in with `1`. */
const bodyEndpoints: Array<readonly [string, string]> = []
HttpApi.reflect(WarehouseApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    if (Option.isSome(endpoint.payloadSchema)) {
      bodyEndpoints.push([endpoint.method, endpoint.path.replace(/:\w+/g, "1")])
    }
  }
})

const multipart = "--wms\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nJansen\r\n--wms--\r\n"

/** Bodies that are not JSON, each of which the platform would read as something: a form, parts, bytes, text. */
const notJson: ReadonlyArray<readonly [contentType: string, body: string]> = [
  ["multipart/form-data; boundary=wms", multipart],
  ["multipart/form-data; boundary=wms", ""],
  ["multipart/form-data", multipart],
  [
    "application/x-www-form-urlencoded",
    `name=Jansen&town=Utrecht&order_id=FORM-1&email=${adminEmail}&password=${adminPassword}`
  ],
  ["application/xml", "<customer><name>Jansen</name></customer>"],
  ["application/octet-stream", "{}"],
  ["text/plain", "{\"name\":\"Jansen\"}"]
]

interface RawResponse {
  readonly status: number
  readonly contentType: string | undefined
  readonly text: string

  readonly body: any
}

const port = Effect.map(HttpServer.HttpServer, (server) => {
  if (server.address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
  return server.address.port
})

const toResponse = (status: number, contentType: string | undefined, text: string): RawResponse => {
  let body: unknown = undefined
  try {
    body = text === "" ? undefined : JSON.parse(text)
  } catch {
    body = text
  }
  return { status, contentType, text, body }
}

/** A request as an integrator's client sends it, bounded to 10 seconds. */
const send = (method: string, path: string, options: {
  readonly token?: string
  readonly site?: string
  readonly body?: string
  /** Of `body`; `application/json` when absent. */
  readonly contentType?: string
} = {}) =>
  Effect.gen(function*() {
    const headers: Record<string, string> = {}
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (options.site !== undefined) headers.site = options.site
    if (options.body !== undefined) headers["content-type"] = options.contentType ?? "application/json"
    const url = `http://127.0.0.1:${yield* port}${path}`
    return yield* Effect.promise(async (signal) => {
      const response = await fetch(url, { method, headers, body: options.body, signal })
      return toResponse(response.status, response.headers.get("content-type") ?? undefined, await response.text())
    })
  }).pipe(Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error(`${method} ${path}: no answer`) }))

const login = Effect.map(
  send("POST", "/login", { body: JSON.stringify({ email: adminEmail, password: adminPassword }) }),
  (response) => response.body.token as string
)

/**
 * A POST through `node:http` whose body `write` sends; the request is dropped once answered.
 * Bounded: a request that gets no answer fails the test.
 */
const rawPost = (path: string, headers: Record<string, string>, write: (request: ClientRequest) => void) =>
  Effect.gen(function*() {
    const target = yield* port
    return yield* Effect.async<RawResponse, Error>((resume) => {
      const req = httpRequest({
        host: "127.0.0.1",
        port: target,
        method: "POST",
        path,
        headers: { "content-type": "application/json", ...headers }
      }, (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk) => (text += chunk))
        res.on("end", () => {
          resume(Effect.succeed(toResponse(res.statusCode ?? 0, res.headers["content-type"], text)))
          req.destroy()
        })
      })
      req.on("error", (error) => resume(Effect.fail(error)))
      write(req)
      return Effect.sync(() => req.destroy())
    }).pipe(Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error("no answer in 10 seconds") }))
  })

/** A body that declares a length it never reaches: only a check made before reading can answer. */
const declaredOnly = (path: string, length: number) =>
  rawPost(path, { "content-length": String(length) }, (request) => request.write("{\"email\":\""))

/**
 * A body sent in chunks with no declared length: `size` bytes of JSON creating a site, written
 * 64 KiB at a time.
 */
const chunked = (token: string, siteId: string, size: number) => {
  const head = `{"site_id":"${siteId}","name":"Chunked","pad":"`
  const body = Buffer.from(`${head}${"a".repeat(size - head.length - 2)}"}`)
  return rawPost("/sites", { authorization: `Bearer ${token}`, site: "main" }, (request) => {
    let offset = 0
    const pump = () => {
      while (offset < body.length) {
        const piece = body.subarray(offset, offset + 64 * 1024)
        offset += piece.length
        if (!request.write(piece)) return void request.once("drain", pump)
      }
      request.end()
    }
    pump()
  })
}

const assertMessageBody = (response: { readonly body: unknown }, message?: string | RegExp) => {
  assert.isObject(response.body)
  assert.deepStrictEqual(Object.keys(response.body as object), ["message"])
  const text = (response.body as { message: unknown }).message
  assert.isString(text)
  if (typeof message === "string") assert.strictEqual(text, message)
  else if (message !== undefined) assert.match(text as string, message)
}

const mib = 1024 * 1024

for (const [label, server] of servers) {
  layer(server, { timeout: 60_000, excludeTestServices: true })(`error responses on ${label}`, (it) => {
    it.effect("an unknown route gets 404 {message}, with or without a token", () =>
      Effect.gen(function*() {
        const token = yield* login
        const cases = [
          ["GET", "/nope", {}],
          ["GET", "/sites/main/extra", { token, site: "main" }],
          ["POST", "/nope", { body: "{\"a\":1}" }],
          ["DELETE", "/users", { token, site: "main" }],
          ["GET", "/", {}]
        ] as const
        for (const [method, path, options] of cases) {
          const response = yield* send(method, path, options)
          assert.strictEqual(response.status, 404, `${method} ${path}`)
          assert.match(response.contentType ?? "", /^application\/json/)
          assertMessageBody(response)
        }
      }))

    it.effect("malformed JSON gets 400 Request body is not valid JSON", () =>
      Effect.gen(function*() {
        const token = yield* login
        for (const body of ["{not json", "{\"email\": \"a\",}", "{\"a\": 1} trailing", "{\"email\": \"a"]) {
          const response = yield* send("POST", "/login", { body })
          assert.strictEqual(response.status, 400, body)
          assertMessageBody(response, "Request body is not valid JSON")
        }
        const sites = yield* send("POST", "/sites", { token, site: "main", body: "[1, 2" })
        assert.deepStrictEqual([sites.status, sites.body], [400, { message: "Request body is not valid JSON" }])
      }))

    it.effect("a JSON body that is not an object, or no body, gets 400", () =>
      Effect.gen(function*() {
        const token = yield* login
        for (const body of ["[]", "[{\"email\": \"admin@example.com\"}]", "\"text\"", "42", "true", "null", ""]) {
          const response = yield* send("POST", "/login", { body })
          assert.strictEqual(response.status, 400, body)
          assertMessageBody(response, "Request body must be a JSON object")
          const sites = yield* send("POST", "/sites", { token, site: "main", body })
          assert.strictEqual(sites.status, 400, body)
          assertMessageBody(sites, "Request body must be a JSON object")
        }
      }))

    it.effect(
      "a body that is not JSON is a 400 on every body endpoint, after token and site, writing and logging nothing",
      () =>
        Effect.gen(function*() {
          const token = yield* login
          const customers = yield* send("GET", "/customers", { token, site: "main" })
          errorsLogged.length = 0
          for (const [method, path] of bodyEndpoints) {
            for (const [contentType, body] of notJson) {
              const response = yield* send(method, path, { token, site: "main", body, contentType })
              assert.deepStrictEqual(
                [response.status, response.body],
                [400, { message: "Request body must be a JSON object" }],
                `${method} ${path} as ${contentType}`
              )
            }
          }
          for (const [contentType, body] of notJson) {
            const noToken = yield* send("POST", "/customers", { body, contentType })
            assert.deepStrictEqual([noToken.status, noToken.body], [401, { message: "Missing authorization token" }])
            const noSite = yield* send("POST", "/customers", { token, body, contentType })
            assert.deepStrictEqual([noSite.status, noSite.body], [403, { message: "Missing header site" }])
          }
          assert.strictEqual((yield* send("GET", "/customers", { token, site: "main" })).text, customers.text)
          assert.strictEqual((yield* send("GET", "/orders/FORM-1", { token, site: "main" })).status, 404)
          assert.deepStrictEqual(errorsLogged, [])
        }),
      120_000
    )

    it.effect("a body declared over 1 MiB gets 413 {message} before it is read", () =>
      Effect.gen(function*() {
        const response = yield* declaredOnly("/login", mib + 1)
        assert.strictEqual(response.status, 413)
        assert.match(response.contentType ?? "", /^application\/json/)
        assertMessageBody(response)
        const sites = yield* declaredOnly("/sites", 64 * mib)
        assert.strictEqual(sites.status, 413)
        assertMessageBody(sites)
      }))

    it.effect("a whole body over 1 MiB gets 413; one of exactly 1 MiB is read", () =>
      Effect.gen(function*() {
        const token = yield* login
        const sized = (siteId: string, size: number) => {
          const head = `{"site_id":"${siteId}","name":"Big","pad":"`
          return `${head}${"a".repeat(size - head.length - 2)}"}`
        }
        const over = yield* send("POST", "/sites", { token, site: "main", body: sized("over", mib + 1) })
        assert.strictEqual(over.status, 413)
        assertMessageBody(over)
        const exact = yield* send("POST", "/sites", { token, site: "main", body: sized("exact", mib) })
        assert.strictEqual(exact.status, 204)
        const sites = yield* send("GET", "/sites", { token, site: "main" })
        const ids = sites.body.map((site: { site_id: string }) => site.site_id)
        assert.include(ids, "exact")
        assert.notInclude(ids, "over")
      }))

    it.effect("a chunked body over 1 MiB gets 413 {message}; a chunked body within it is read", () =>
      Effect.gen(function*() {
        const token = yield* login
        const over = yield* chunked(token, "chunked-over", 2 * mib)
        assert.strictEqual(over.status, 413)
        assertMessageBody(over, "Request body is larger than 1 MiB")
        const within = yield* chunked(token, "chunked-within", mib)
        assert.strictEqual(within.status, 204, within.text)
        const sites = yield* send("GET", "/sites", { token, site: "main" })
        const ids = sites.body.map((site: { site_id: string }) => site.site_id)
        assert.include(ids, "chunked-within")
        assert.notInclude(ids, "chunked-over")
      }))

    it.effect("every error of the API is exactly {message} with a JSON content type", () =>
      Effect.gen(function*() {
        const token = yield* login
        const responses = [
          yield* send("POST", "/login", { body: "{\"email\":\"x\",\"password\":\"y\"}" }),
          yield* send("GET", "/verifytoken"),
          yield* send("GET", "/sites", { token: "x.y.z", site: "main" }),
          yield* send("GET", "/sites", { token }),
          yield* send("GET", "/sites", { token, site: "elsewhere" }),
          yield* send("POST", "/sites", { token, site: "main", body: "{}" }),
          yield* send("POST", "/sites", { token, site: "main", body: "{\"site_id\":\"main\",\"name\":\"M\"}" }),
          yield* send("POST", "/clients", { token, site: "main", body: "{\"client_id\":\"c\",\"name\":\"C\"}" })
        ]
        assert.deepStrictEqual(responses.map((response) => response.status), [401, 401, 401, 403, 403, 400, 409, 409])
        for (const response of responses) {
          assert.match(response.contentType ?? "", /^application\/json/)
          assertMessageBody(response)
        }
      }))

    it.effect("the server still answers after oversized and malformed requests", () =>
      Effect.gen(function*() {
        const health = yield* send("GET", "/health")
        assert.deepStrictEqual([health.status, health.body], [200, { status: "ok" }])
        assert.isString(yield* login)
      }))
  })
}

class BoomGroup extends HttpApiGroup.make("boom")
  .add(HttpApiEndpoint.get("die", "/die").addSuccess(Schema.String))
  .add(HttpApiEndpoint.get("throw", "/throw").addSuccess(Schema.String))
  .add(HttpApiEndpoint.get("dieWithString", "/die-with-string").addSuccess(Schema.String))
{}

class BoomApi extends HttpApi.make("boom").add(BoomGroup) {}

const secret = "secret-detail-of-the-defect"

const BoomLive = HttpApiBuilder.group(BoomApi, "boom", (handlers) =>
  handlers
    .handle("die", () => Effect.die(new Error(secret)))
    .handle("throw", () =>
      Effect.sync(() => {
        throw new TypeError(secret)
      }))
    .handle("dieWithString", () => Effect.die(secret)))

const logged: Array<string> = []

const captureLogs = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ cause, message }) => {
    logged.push(`${JSON.stringify(message)} ${Cause.pretty(cause, { renderErrorCause: true })}`)
  })
)

const boomServer = HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.api(BoomApi).pipe(Layer.provide([BoomLive, ErrorResponses.layer]))),
  Layer.provide(captureLogs),
  Layer.provideMerge(NodeHttpServer.layer(Server.createNodeServer, { port: 0 }))
)

layer(boomServer, { timeout: 30_000, excludeTestServices: true })("an unexpected failure", (it) => {
  it.effect("answers 500 {message: Internal server error}, leaking nothing, and logs its cause", () =>
    Effect.gen(function*() {
      for (const path of ["/die", "/throw", "/die-with-string"]) {
        logged.length = 0
        const response = yield* send("GET", path)
        assert.strictEqual(response.status, 500, `${path}: ${response.text}`)
        assert.match(response.contentType ?? "", /^application\/json/)
        assert.strictEqual(response.text, "{\"message\":\"Internal server error\"}", path)
        assert.isTrue(logged.some((line) => line.includes(secret)), `${path} is logged with its cause: ${logged}`)
      }
    }))
})
