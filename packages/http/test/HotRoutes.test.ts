/**
 * The node:http front of the hot routes (`HotRoutes`) answers exactly as the `HttpApi` behind it:
 * the same requests, hostile ones included, go to the bundled server (front in place) and to the
 * bare `HttpApi` app, each on its own database seeded alike, and every answer must match (status,
 * content type, `Retry-After`, `Preference-Applied`, `Location`, `X-Total-Count`, body, request id).
 * Then the body limit of the front, which the differential run cannot reach cheaply: a declared and
 * a chunked body over 1 MiB.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { Server } from "@wms/http"
import { Context, Effect, Layer } from "effect"
import * as fc from "fast-check"
import { apiTestsOnBothStores, freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { propertyRuns } from "../../../testing/properties.js"
import { type Answer, send as sendRaw, type Sent } from "../../../testing/rawRequest.js"
import { adminEmail, adminPassword, testConfig } from "../../../testing/server.js"

const send = (port: number, sent: Sent) => sendRaw("127.0.0.1", port, sent)

/** What must match: a record's author and time of creation differ between the two databases. */
const comparable = (answer: Answer) => {
  let body: unknown = answer.text
  try {
    body = JSON.parse(
      answer.text,
      (key, value) => key === "created_by" ? "<user>" : key === "creation_datetime" ? "<time>" : value
    )
  } catch {
    // Not JSON: compared as text.
  }
  return {
    status: answer.status,
    contentType: answer.headers["content-type"],
    retryAfter: answer.headers["retry-after"],
    preferenceApplied: answer.headers["preference-applied"],
    location: answer.headers["location"],
    totalCount: answer.headers["x-total-count"],
    hasRequestId: typeof answer.headers["x-request-id"] === "string",
    body
  }
}

class Servers extends Context.Tag("test/Servers")<Servers, {
  /** The bundled server, front in place, and the `HttpApi` app alone, each on its own database. */
  readonly front: number
  readonly platform: number
  /** Each server's admin token. */
  readonly tokens: { readonly front: string; readonly platform: string }
}>() {}

const portOf = (context: Context.Context<HttpServer.HttpServer>) => {
  const { address } = Context.get(context, HttpServer.HttpServer)
  if (address._tag !== "TcpAddress") throw new Error("the test servers listen on TCP")
  return address.port
}

const login = (port: number) =>
  Effect.map(
    send(port, {
      method: "POST",
      path: "/login",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: adminEmail, password: adminPassword })
    }),
    (answer) => JSON.parse(answer.text).token as string
  )

/** The same master data on both: a customer (id 1), a carrier (id 1) and two SKUs. */
const seed = (port: number, token: string) =>
  Effect.forEach(
    [
      ["/customers", { name: "Customer", town: "Town" }],
      ["/carriers", { name: "Carrier" }],
      ["/skus", { sku_id: "SKU-1", description: "One" }],
      ["/skus", { sku_id: "SKU-2", description: "Two" }]
    ] as const,
    ([path, body]) =>
      Effect.flatMap(
        send(port, {
          method: "POST",
          path,
          headers: { "content-type": "application/json", authorization: `Bearer ${token}`, site: "main" },
          body: JSON.stringify(body)
        }),
        (answer) => answer.status === 204 ? Effect.void : Effect.die(new Error(`seeding ${path}: ${answer.text}`))
      )
  )

const servers = (kind: "sqlite" | "postgres") =>
  Layer.scoped(
    Servers,
    Effect.gen(function*() {
      const database = kind === "sqlite" ? Effect.map(freshSqliteFile, (file) => `sqlite:${file}`) : freshPgDatabase
      const front = portOf(yield* Layer.build(Server.layer(testConfig(yield* database))))
      const platform = portOf(
        yield* Layer.build(
          Server.app(testConfig(yield* database)).pipe(
            Layer.provideMerge(NodeHttpServer.layer(Server.createNodeServer, { port: 0 }))
          )
        )
      )
      const tokens = { front: yield* login(front), platform: yield* login(platform) }
      yield* seed(front, tokens.front)
      yield* seed(platform, tokens.platform)
      return { front, platform, tokens }
    })
  )

/** A request as the arbitraries make it, with the token named rather than given. */
interface Request {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly authorization: ((token: string) => string) | undefined
  readonly site: string | undefined
  readonly requestId: string | undefined
  readonly contentType: string | undefined
  readonly prefer: string | undefined
  readonly body: string | undefined
}

const orderIds = ["SO-1", "SO-2", "so-1", "A", "x".repeat(100), "x".repeat(101), "SO 1", "é", "a;b", "a#b", "%"]

const orderId = fc.oneof(
  fc.constantFrom(...orderIds),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 4 })
)

// The ids of the orders the generated bodies create.
const poolIds = Array.from({ length: 30 }, (_, i) => `SO-${i + 1}`)

const pathSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...poolIds) },
  orderId.map(encodeURIComponent),
  fc.constantFrom("SO-1", "SO%2D1", "SO-1;x=1", "a%", "%E0%A4%A", "%00", "%2F", "SO-1%20", ".", "..", "~", "*", "")
)

const query = fc.array(
  fc.constantFrom(
    "lines=false",
    "lines=true",
    "lines",
    "lines=",
    "limit=1",
    "limit=0",
    "limit=-1",
    "limit=x",
    "limit=1.5",
    "offset=1",
    "offset=1e3",
    "offset=99999999999",
    "limit=1&limit=2",
    "%6Cimit=1",
    "lines=fal%73e",
    "lines=fal+se",
    "=x",
    "",
    "a=b=c",
    "__proto__=1",
    "constructor=x",
    "lines=%00"
  ),
  { maxLength: 3 }
).map((parts) => parts.join("&"))

const line = fc.record({
  sku_id: fc.constantFrom("SKU-1", "SKU-2", "SKU-9", "", 7),
  qty: fc.constantFrom(1, 5, 0, -1, 1.5, "2", 2147483648),
  line: fc.constantFrom(1, 2, 0, "x")
}, { requiredKeys: ["sku_id", "qty"] })

const hostileOrder = fc.record({
  order_id: fc.oneof(fc.constantFrom(...orderIds.slice(0, 4)), fc.string({ maxLength: 6 }), fc.constant(7)),
  customer_id: fc.constantFrom(1, 2, null, "1", 2147483648),
  carrier_id: fc.constantFrom(1, 9, null),
  order_date: fc.constantFrom("2026-01-31", "2026-02-30", "31-01-2026", null),
  ship_by_date: fc.constantFrom("2026-12-01", null),
  ship_dock: fc.constantFrom("D1", "", "  ", null, "a\u0000b"),
  lines: fc.oneof(fc.array(line, { maxLength: 3 }), fc.constant("x"))
}, { requiredKeys: [] })

// Orders the server takes, from the pool of ids: creations, then 409s for the ids taken, and
// orders for the reads to find.
const validOrder = fc.record({
  order_id: fc.constantFrom(...poolIds),
  customer_id: fc.constantFrom(1, null),
  carrier_id: fc.constantFrom(1, null),
  order_date: fc.constantFrom("2026-01-31", null),
  ship_dock: fc.constantFrom("D1", ""),
  lines: fc.array(fc.record({ sku_id: fc.constantFrom("SKU-1", "SKU-2"), qty: fc.integer({ min: 1, max: 9 }) }), {
    maxLength: 3
  })
}, { requiredKeys: ["order_id"] })

// What a client may add to an order: fields it does not know, and read-only ones as GET shows them.
const extraFields = fc.record({
  colour: fc.constant("red"),
  order_status: fc.constant({ id: 14, description: "Released" }),
  created_by: fc.constant("someone"),
  customer: fc.constantFrom({ id: 1, name: "Customer" }, { id: 1, name: "Customer", vip: true })
}, { requiredKeys: [] })

const extraLineFields = fc.record({
  qty_picked: fc.constant(0),
  qty_shipped: fc.constant(0),
  colour: fc.constant(1)
}, { requiredKeys: [] })

const orderWithExtras = fc.tuple(validOrder, extraFields, fc.array(extraLineFields, { maxLength: 3 })).map(
  ([order, extras, lineExtras]) => ({
    ...order,
    ...extras,
    lines: order.lines?.map((line, i) => ({ ...line, ...lineExtras[i] }))
  })
)

const body = fc.oneof(
  { weight: 6, arbitrary: validOrder.map((value) => JSON.stringify(value)) },
  { weight: 3, arbitrary: orderWithExtras.map((value) => JSON.stringify(value)) },
  { weight: 4, arbitrary: hostileOrder.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "{",
      "[]",
      "null",
      "\uFEFF{\"order_id\":\"B\"}",
      "{\"order_id\":\"N\\u0000\"}",
      `${"[".repeat(40)}${"]".repeat(40)}`
    )
  }
)

// Mostly a caller that passes the checks, so that the routes' own work is compared too.
const authorization = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Request["authorization"]>((token) => `Bearer ${token}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Request["authorization"]>(
      (token) => `bearer ${token}`,
      (token) => `Bearer   ${token}  `,
      (token) => token,
      (token) => `Bearer ${token}x`,
      (token) => `BEARER\t${token}`,
      (token) => `Basic12${token}`,
      (token) => `xBearer ${token}`,
      (token) => `Bearer,${token}`,
      () => "Bearer ",
      () => "Bearer not-a-token",
      undefined
    )
  }
)

const site = fc.oneof(
  { weight: 4, arbitrary: fc.constant("main") },
  { weight: 1, arbitrary: fc.constantFrom(" main ", "", "elsewhere", undefined) }
)

const request: fc.Arbitrary<Request> = fc.record({
  route: fc.constantFrom("getOrder", "listOrders", "createOrder", "createOrder"),
  segment: pathSegment,
  query: fc.option(query, { nil: undefined }),
  authorization,
  site,
  requestId: fc.constantFrom(undefined, "req-1", "not a plain id", "x".repeat(129)),
  contentType: fc.oneof(
    { weight: 4, arbitrary: fc.constant("application/json") },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "multipart/form-data; boundary=x",
        "application/xml",
        "application/json-patch+json",
        "application/jsonfoo",
        "application/json-seq",
        "text/plain; note=application/json",
        undefined
      )
    }
  ),
  prefer: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom("handling=strict", "handling=lenient", "respond-async, handling=strict") }
  ),
  body
}).map(({ route, segment, query, authorization, site, requestId, contentType, prefer, body }): Request => ({
  method: route === "createOrder" ? "POST" : "GET",
  path: route === "getOrder"
    ? `/orders/${segment}${query === undefined ? "" : `?${query}`}`
    : `/orders${query === undefined ? "" : `?${query}`}`,
  authorization,
  site,
  requestId,
  contentType: route === "createOrder" ? contentType : undefined,
  prefer,
  body: route === "createOrder" ? body : undefined
}))

const sentTo = (request: Request, token: string): Sent => {
  const headers: Record<string, string> = {}
  if (request.authorization !== undefined) headers.authorization = request.authorization(token)
  if (request.site !== undefined) headers.site = request.site
  if (request.requestId !== undefined) headers["x-request-id"] = request.requestId
  if (request.contentType !== undefined) headers["content-type"] = request.contentType
  if (request.prefer !== undefined) headers.prefer = request.prefer
  return { method: request.method, path: request.path, headers, body: request.body }
}

const differential = (kind: "sqlite" | "postgres") =>
  layer(servers(kind), { timeout: 120_000, excludeTestServices: true })(`the hot routes on ${kind}`, (it) => {
    it.effect("answer every request as the HttpApi does", () =>
      Effect.gen(function*() {
        const { front, platform, tokens } = yield* Servers
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(request, async (request) => {
              const [fromFront, fromPlatform] = await Effect.runPromise(Effect.all([
                send(front, sentTo(request, tokens.front)),
                send(platform, sentTo(request, tokens.platform))
              ], { concurrency: 1 }))
              assert.deepStrictEqual(
                comparable(fromFront),
                comparable(fromPlatform),
                `${JSON.stringify(request)}: ${fromFront.text} / ${fromPlatform.text}`
              )
              if (request.requestId === "req-1") assert.strictEqual(fromFront.headers["x-request-id"], "req-1")
            }),
            { numRuns: propertyRuns(600) }
          )
        )
      }))

    it.effect("take a body as JSON only under application/json, with any parameters in any case", () =>
      Effect.gen(function*() {
        const { front, platform, tokens } = yield* Servers
        const post = (port: number, token: string, path: string, contentType: string, body: object) =>
          send(port, {
            method: "POST",
            path,
            headers: { authorization: `Bearer ${token}`, site: "main", "content-type": contentType },
            body: JSON.stringify(body)
          })
        const notJson = [
          "application/json-patch+json",
          "application/jsonfoo",
          "application/json-seq",
          "text/plain; note=application/json"
        ]
        const json = ["application/json", "Application/JSON; charset=UTF-8", " application/json ;charset=utf-8"]
        // An order on the hot front, a carrier on the HttpApi alone.
        for (const [i, contentType] of [...notJson, ...json].entries()) {
          const order = { order_id: `MT-${kind}-${i}`, customer_id: 1, lines: [{ sku_id: "SKU-1", qty: 1 }] }
          for (
            const answer of [
              yield* post(front, tokens.front, "/orders", contentType, order),
              yield* post(platform, tokens.platform, "/carriers", contentType, { name: `Carrier ${i}` })
            ]
          ) {
            if (notJson.includes(contentType)) {
              assert.strictEqual(answer.status, 400, contentType)
              assert.strictEqual(answer.text, "{\"message\":\"Request body must be a JSON object\"}", contentType)
            } else {
              assert.include([201, 204], answer.status, `${contentType}: ${answer.text}`)
            }
          }
        }
      }))

    it.effect("answer a body over 1 MiB with 413, declared or chunked, and close the connection", () =>
      Effect.gen(function*() {
        const { front, tokens } = yield* Servers
        const headers = { authorization: `Bearer ${tokens.front}`, site: "main", "content-type": "application/json" }
        const big = JSON.stringify({ order_id: "BIG", ship_dock: "a".repeat(1024 * 1024) })
        for (const chunked of [false, true]) {
          const answer = yield* send(front, { method: "POST", path: "/orders", headers, body: big, chunked })
          assert.strictEqual(answer.status, 413, answer.text)
          assert.strictEqual(answer.text, "{\"message\":\"Request body is larger than 1 MiB\"}")
          if (chunked) assert.strictEqual(answer.headers.connection, "close")
        }
        const missing = yield* send(front, { method: "GET", path: "/orders/BIG", headers })
        assert.strictEqual(missing.status, 404)
      }))
  })

// Both servers run on one store, so a store's answers would be the same on both sides: SQLite proves
// the front, and StoresSmoke the hot routes on PostgreSQL.
differential("sqlite")
if (apiTestsOnBothStores) differential("postgres")
