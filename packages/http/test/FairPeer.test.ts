/**
 * The fair peer of the HTTP benchmark (`bench/http/fair.js`, Fastify doing the engine's work per
 * request) answers `GET /orders/:id`, `GET /orders` and `POST /orders` as the bundled server does,
 * byte for byte: both run on one database, every request of the set below goes to both, and the
 * status, content type and body must be the same, errors included (401, 403, 400, 404, 409, 413).
 * A write goes to each with its own order id (`E-…` to the engine, `P-…` to the peer), compared
 * with the id masked, and the orders written are read back alike. Then the access lines and the
 * request counts of the two must agree. The benchmark's ratios to the peer mean something only
 * while this holds.
 */
import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { SignJWT } from "jose"
import { fileURLToPath } from "node:url"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { type ServerProcess, startProcess } from "../../../testing/processes.js"
import { type Answer, send as sendRaw, type Sent } from "../../../testing/rawRequest.js"
import { adminPassword, jwtSecret } from "../../../testing/server.js"

const fairPeer = fileURLToPath(new URL("../../../bench/http/fair.js", import.meta.url))
const password = "password-of-a-user"

const send = (server: ServerProcess, sent: Sent) => {
  const { hostname, port } = new URL(server.url)
  return Effect.orDie(sendRaw(hostname, port, sent))
}

/** A JSON request with a bearer token and a `site` header, as a client of the API sends it. */
const json = (
  method: Sent["method"],
  path: string,
  token: string | undefined,
  site: string | undefined,
  body?: unknown
): Sent => ({
  method,
  path,
  headers: {
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...(site === undefined ? {} : { site }),
    ...(body === undefined ? {} : { "content-type": "application/json" })
  },
  ...(body === undefined ? {} : { body: JSON.stringify(body) })
})

const expect = (server: ServerProcess, sent: Sent, status: number) =>
  Effect.tap(
    send(server, sent),
    (answer) =>
      Effect.sync(() => assert.strictEqual(answer.status, status, `${sent.method} ${sent.path}: ${answer.text}`))
  )

/** What must be the same bytes: status, content type and body; and an `x-request-id` on every answer. */
const comparable = (answer: Answer, mask = (text: string) => text) => ({
  status: answer.status,
  contentType: answer.headers["content-type"],
  requestId: typeof answer.headers["x-request-id"] === "string",
  body: mask(answer.text)
})

class Servers extends Context.Tag("test/FairPeerServers")<Servers, {
  readonly engine: ServerProcess
  readonly peer: ServerProcess
  /** Tokens by caller: the admin, a user of the fulfillment site, a user of its client, a disabled user. */
  readonly tokens: Record<"admin" | "site" | "client" | "disabled", string>
  readonly adminId: string
  readonly disabledId: string
}>() {}

const login = (engine: ServerProcess, email: string, secret: string) =>
  Effect.map(
    expect(engine, json("POST", "/login", undefined, undefined, { email, password: secret }), 200),
    (answer) => JSON.parse(answer.text).token as string
  )

/**
 * Master data, users and orders through the engine: site `main`; the fulfillment site `ful` with
 * its client `c1`; customers 1 and 2 on `main` (2 without a town), 3 on `ful`, 4 of `c1`.
 */
const seed = (engine: ServerProcess) =>
  Effect.gen(function*() {
    const admin = yield* login(engine, "admin@example.com", adminPassword)
    const post = (site: string, path: string, body: unknown) =>
      expect(engine, json("POST", path, admin, site, body), 204)
    yield* post("main", "/sites", { site_id: "ful", name: "Fulfillment", fulfillment: true })
    yield* post("ful", "/clients", { client_id: "c1", name: "Client one" })
    yield* post("main", "/customers", { name: "Customer", town: "Utrecht" })
    yield* post("main", "/customers", { name: "Townless", town: "  " })
    yield* post("ful", "/customers", { name: "Fulfilled" })
    yield* post("c1", "/customers", { name: "Client's", town: "Gouda" })
    yield* post("main", "/carriers", { name: "Carrier" })
    yield* post("ful", "/carriers", { name: "Carrier of ful" })
    for (const sku_id of ["SKU-1", "SKU-2"]) yield* post("main", "/skus", { sku_id, description: sku_id })
    yield* post("ful", "/skus", { sku_id: "SKU-F", description: "Of the site" })
    yield* post("c1", "/skus", { sku_id: "SKU-C", description: "Of the client" })
    const users = [
      { email: "site@example.com", site: "ful" },
      { email: "client@example.com", site: "ful", client: "c1" },
      { email: "disabled@example.com", site: "main" }
    ]
    for (const user of users) yield* post("main", "/users", { ...user, password, name: user.email })
    const tokens = {
      admin,
      site: yield* login(engine, "site@example.com", password),
      client: yield* login(engine, "client@example.com", password),
      disabled: yield* login(engine, "disabled@example.com", password)
    }
    const listed = JSON.parse((yield* expect(engine, json("GET", "/users", admin, "main"), 200)).text) as Array<
      { userId: string; email: string }
    >
    const idOf = (email: string) => listed.find((user) => user.email === email)!.userId
    yield* expect(engine, json("PUT", `/users/${idOf("disabled@example.com")}`, admin, "main", { active: false }), 204)
    yield* post("main", "/orders", {
      order_id: "SO-1",
      customer_id: 1,
      carrier_id: 1,
      order_date: "2026-01-31",
      ship_by_date: "2026-02-02",
      ship_dock: "DOCK-1",
      lines: [{ sku_id: "SKU-1", qty: 3 }, { sku_id: "SKU-2", qty: 1, line: 5 }]
    })
    yield* post("main", "/orders", { order_id: "SO-2", ship_dock: "" })
    yield* post("main", "/orders", { order_id: "SO 3 é", customer_id: 2, lines: [{ sku_id: "SKU-2", qty: 7 }] })
    yield* post("ful", "/orders", { order_id: "F-1", customer_id: 3, lines: [{ sku_id: "SKU-F", qty: 2 }] })
    yield* post("c1", "/orders", {
      order_id: "C-1",
      customer_id: 4,
      carrier_id: 2,
      lines: [{ sku_id: "SKU-C", qty: 4 }]
    })
    return { tokens, adminId: idOf("admin@example.com"), disabledId: idOf("disabled@example.com") }
  })

const servers = (kind: "sqlite" | "postgres") =>
  Layer.scoped(
    Servers,
    Effect.gen(function*() {
      const database = kind === "sqlite" ? `sqlite:${yield* freshSqliteFile}` : yield* freshPgDatabase
      const engine = yield* startProcess({
        env: {
          WMS_DATABASE_URL: database,
          WMS_ADMIN_PASSWORD: adminPassword,
          WMS_JWT_SECRET: jwtSecret,
          WMS_PASSWORD_HASH_COST: "14"
        }
      })
      const { adminId, disabledId, tokens } = yield* seed(engine)
      const peer = yield* startProcess({
        command: [process.execPath, fairPeer],
        env: { WMS_DATABASE_URL: database, WMS_JWT_SECRET: jwtSecret }
      })
      return { engine, peer, tokens, adminId, disabledId }
    })
  )

/** A token signed with `key` (the servers' by default), as `Tokens.issue` signs one unless told otherwise. */
const sign = (
  claims: Record<string, unknown>,
  options: { readonly expiresIn?: string | number; readonly key?: string } = {}
) =>
  Effect.promise(() =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? "1h")
      .sign(new TextEncoder().encode(options.key ?? jwtSecret))
  )

/** The reads and the refusals: each sent as it is to both servers. */
const requests = (tokens: Servers["Type"]["tokens"], signed: Record<string, string>): Array<Sent> => {
  const { admin, client, site } = tokens
  const get = (path: string, token: string | undefined = admin, siteHeader: string | undefined = "main") =>
    json("GET", path, token, siteHeader)
  const raw = (body: string, token: string | null = admin): Sent => ({
    ...json("POST", "/orders", token ?? undefined, "main", {}),
    body
  })
  const withAuthorization = (path: string, authorization: string): Sent => ({
    method: "GET",
    path,
    headers: { authorization, site: "main" }
  })
  return [
    get("/orders/SO-1"),
    get("/orders/SO-2"),
    get(`/orders/${encodeURIComponent("SO 3 é")}`),
    get("/orders/NOPE"),
    get("/orders/F-1"),
    get(`/orders/${"x".repeat(100)}`),
    get(`/orders/${"x".repeat(101)}`),
    get("/orders/A%00B"),
    get("/orders/%E0%A4%A"),
    get("/orders"),
    get("/orders?lines=false"),
    get("/orders?lines=true&limit=1&offset=1"),
    get("/orders?lines&offset=2"),
    get("/orders?limit=0"),
    get("/orders?offset=99"),
    get("/orders?limit=x"),
    get("/orders?limit=-1"),
    get("/orders?offset=1e3"),
    get("/orders?offset=9999999999"),
    get("/orders?limit=1&limit=2"),
    get("/orders?lines=a&lines=b"),
    get("/orders?unknown=1"),
    // Scope: a site sees its clients' orders, a client only its own; a user only its home site.
    get("/orders", admin, "ful"),
    get("/orders", admin, "c1"),
    get("/orders", site, "ful"),
    get("/orders", site, "c1"),
    get("/orders/C-1", site, "c1"),
    get("/orders/F-1", site, "c1"),
    get("/orders", client, "c1"),
    get("/orders/C-1", client, "c1"),
    get("/orders/F-1", client, "c1"),
    get("/orders", client, "ful"),
    get("/orders", site, "main"),
    get("/orders", admin, "nowhere"),
    get("/orders", admin, " main "),
    get("/orders", admin, "  "),
    get("/orders", admin, undefined),
    get("/orders/SO-1", admin, undefined),
    // The token: missing, empty, not a JWT, another key, expired, stale version, bad claims, a user gone.
    get("/orders", undefined),
    get("/orders/SO-1", undefined, undefined),
    withAuthorization("/orders", "Bearer "),
    withAuthorization("/orders", "Bearer    "),
    withAuthorization("/orders", "Bearer not-a-token"),
    withAuthorization("/orders", `bearer ${admin}`),
    withAuthorization("/orders", `Bearer   ${admin}  `),
    withAuthorization("/orders", admin),
    withAuthorization("/orders", `Bearer ${admin}x`),
    ...Object.values(signed).map((token) => get("/orders", token)),
    get("/orders", tokens.disabled),
    json("POST", "/orders", undefined, "main", { order_id: "NO-TOKEN" }),
    json("POST", "/orders", tokens.disabled, "main", { order_id: "DISABLED" }),
    json("POST", "/orders", client, "ful", { order_id: "ELSEWHERE" }),
    raw("{", null),
    // A declared body over 1 MiB is refused before the token is looked at.
    {
      method: "POST",
      path: "/orders",
      headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
      body: ""
    },
    // Bodies refused before the schema, then by it, field by field in its order.
    raw(""),
    raw("{"),
    raw("\uFEFF{\"order_id\":\"BOM\"}"),
    raw(`${"[".repeat(40)}${"]".repeat(40)}`),
    raw(`{"lines":${"[".repeat(31)}${"]".repeat(31)}}`),
    raw("{\"order_id\":\"N\\u0000\"}"),
    raw("{\"a\\u0000\":1}"),
    raw("\"x\\u0000\""),
    raw("{\"order_id\":\"a\\ud800\"}"),
    ...[
      null,
      [],
      "x",
      5,
      {},
      { customer_id: "x" },
      { order_id: 5, customer_id: "x" },
      { order_id: null },
      { order_id: "" },
      { order_id: "   " },
      { order_id: "x".repeat(101) },
      { order_id: { nested: [1, "a", null, true] } },
      { order_id: { constructor: { name: "Odd" } } },
      { order_id: "V", customer_id: "1" },
      { order_id: "V", customer_id: 1.5 },
      { order_id: "V", customer_id: 0 },
      { order_id: "V", customer_id: 2147483648 },
      { order_id: "V", customer_id: [] },
      { order_id: "V", order_date: "2026-02-30" },
      { order_id: "V", order_date: "31-01-2026" },
      { order_id: "V", order_date: 20260131 },
      { order_id: "V", ship_by_date: "x" },
      { order_id: "V", carrier_id: true },
      { order_id: "V", ship_dock: 5 },
      { order_id: "V", lines: "x" },
      { order_id: "V", lines: {} },
      { order_id: "V", lines: [5] },
      { order_id: "V", lines: [[]] },
      { order_id: "V", lines: [null] },
      { order_id: "V", lines: [{}] },
      { order_id: "V", lines: [{ qty: 0 }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1" }] },
      { order_id: "V", lines: [{ sku_id: "", qty: 1 }] },
      { order_id: "V", lines: [{ sku_id: 7, qty: 1 }] },
      { order_id: "V", lines: [{ sku_id: null, qty: 1 }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: 0 }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: -1 }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: 1.5 }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: "2" }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: null }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: 2147483648 }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: 1, line: 0 }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: 1, line: "x" }] },
      { order_id: "V", lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-1", qty: 1, line: 1.5 }] }
    ].map((body) => json("POST", "/orders", admin, "main", body)),
    // An existing order: 409 whichever server wrote it.
    json("POST", "/orders", admin, "main", { order_id: "SO-1" }),
    json("POST", "/orders", client, "c1", { order_id: "C-1" })
  ]
}

/** Writes, each sent to both servers with its own order id: `E-<n>` to the engine, `P-<n>` to the peer. */
const writes = (tokens: Servers["Type"]["tokens"]): Array<{ readonly sent: (id: string) => Sent }> => {
  const { admin, client, site } = tokens
  const order = (token: string, siteHeader: string, body: Record<string, unknown>) => ({
    sent: (id: string) => json("POST", "/orders", token, siteHeader, { order_id: id, ...body })
  })
  return [
    order(admin, "main", {
      customer_id: 1,
      carrier_id: 1,
      order_date: "2026-03-01",
      ship_by_date: "2026-03-03",
      ship_dock: "DOCK-2",
      lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-2", qty: 2 }, { sku_id: "SKU-1", qty: 3 }],
      ignored: "unknown fields are ignored"
    }),
    order(admin, "main", { customer_id: null, carrier_id: null, order_date: null, ship_dock: null, lines: null }),
    order(admin, "main", { ship_dock: "   ", lines: [] }),
    order(admin, "main", { lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-2", qty: 1, line: 1 }] }),
    order(admin, "main", { lines: [{ sku_id: "SKU-1", qty: 1, line: 2147483647 }, { sku_id: "SKU-2", qty: 1 }] }),
    order(admin, "main", { lines: [{ sku_id: "SKU-1", qty: 1, line: 3 }, { sku_id: "SKU-2", qty: 1, line: 3 }] }),
    order(admin, "main", { customer_id: 999, carrier_id: 999, lines: [{ sku_id: "SKU-9", qty: 1 }] }),
    order(admin, "main", { customer_id: 3 }),
    order(admin, "main", { carrier_id: 2 }),
    order(admin, "main", { lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-F", qty: 1 }] }),
    order(admin, "main", {
      customer_id: 1,
      lines: [{ sku_id: "SKU-9", qty: 1, line: 1 }, { sku_id: "SKU-1", qty: 1, line: 1 }]
    }),
    order(site, "ful", { customer_id: 3, carrier_id: 2, lines: [{ sku_id: "SKU-F", qty: 5 }] }),
    order(site, "c1", { customer_id: 4, carrier_id: 2, lines: [{ sku_id: "SKU-C", qty: 1 }] }),
    order(site, "c1", { customer_id: 3 }),
    order(site, "c1", { lines: [{ sku_id: "SKU-F", qty: 1 }] }),
    order(client, "c1", { customer_id: 4, lines: [{ sku_id: "SKU-C", qty: 6 }] }),
    order(client, "c1", { customer_id: 3 }),
    order(client, "ful", {})
  ]
}

/** The ids of the written orders, masked so that the engine's and the peer's answers compare. */
const masking = (id: string) => (text: string) => text.split(JSON.stringify(id).slice(1, -1)).join("<id>")

const compareAll = (
  { engine, peer }: Servers["Type"],
  cases: ReadonlyArray<Sent>,
  requestIdOf: (index: number) => string | undefined
) =>
  Effect.forEach(cases, (sent, index) =>
    Effect.gen(function*() {
      const requestId = requestIdOf(index)
      const withId = requestId === undefined
        ? sent
        : { ...sent, headers: { ...sent.headers, "x-request-id": requestId } }
      const fromEngine = yield* send(engine, withId)
      const fromPeer = yield* send(peer, withId)
      assert.deepStrictEqual(
        comparable(fromPeer),
        comparable(fromEngine),
        `${sent.method} ${sent.path} ${JSON.stringify(sent.headers)} ${sent.body?.slice(0, 200)}`
      )
      if (requestId !== undefined && /^[\w.:-]+$/.test(requestId)) {
        assert.strictEqual(fromPeer.headers["x-request-id"], requestId)
      }
      return [fromEngine, fromPeer] as const
    }))

/** The access line of a request id in a server's output, once written (lines go out at the end of a turn). */
const accessLine = (server: ServerProcess, requestId: string) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 50; attempt++) {
      const line = server.output().split("\n").find((text) => text.includes(`"request_id":"${requestId}"`))
      if (line !== undefined) return JSON.parse(line) as Record<string, unknown>
      yield* Effect.sleep("100 millis")
    }
    return assert.fail(`no access line of ${requestId}:\n${server.output().slice(-2000)}`)
  })

/** The request counts of the order reads, which both servers got alike. */
const orderReadCounts = (server: ServerProcess) =>
  Effect.map(
    send(server, { method: "GET", path: "/metrics", headers: {} }),
    (answer) =>
      answer.text.split("\n")
        .filter((line) => /^http_requests_total\{method="GET",route="\/orders(\/:id)?"/.test(line))
        .sort()
  )

const fairPeerOn = (kind: "sqlite" | "postgres") =>
  layer(servers(kind), { timeout: 120_000, excludeTestServices: true })(`the fair peer on ${kind}`, (it) => {
    it.effect("answers every request with the engine's status, content type and bytes", () =>
      Effect.gen(function*() {
        const servers = yield* Servers
        const { adminId, disabledId, tokens } = servers
        const claims = { sub: adminId, admin: true, site: "main", client: null, ver: 0 }
        const signed = {
          otherKey: yield* sign(claims, { key: "another-secret-of-at-least-32-bytes" }),
          expired: yield* sign(claims, { expiresIn: Math.floor(Date.now() / 1000) - 10 }),
          staleVersion: yield* sign({ ...claims, ver: 7 }),
          noVersion: yield* sign({ sub: adminId, admin: true, site: "main", client: null }),
          noClient: yield* sign({ sub: adminId, admin: true, site: "main", ver: 0 }),
          adminAsText: yield* sign({ ...claims, admin: "yes" }),
          longSite: yield* sign({ ...claims, site: "s".repeat(65) }),
          unknownUser: yield* sign({ ...claims, sub: "nobody" }),
          notAdmin: yield* sign({ ...claims, admin: false, site: "ful" }),
          // The disabled user's current version (its change raised it to 1): refused for being inactive.
          disabled: yield* sign({ sub: disabledId, admin: false, site: "main", client: null, ver: 1 })
        }
        const reads = requests(tokens, signed)
        yield* compareAll(
          servers,
          reads,
          (i) => (i % 3 === 0 ? `fair-${kind}-${i}` : i % 3 === 1 ? "not a plain id" : undefined)
        )

        const written = writes(tokens)
        yield* Effect.forEach(written, ({ sent }, n) =>
          Effect.gen(function*() {
            const fromEngine = yield* send(servers.engine, sent(`E-${n}`))
            const fromPeer = yield* send(servers.peer, sent(`P-${n}`))
            const label = JSON.stringify(sent("<id>"))
            assert.deepStrictEqual(
              comparable(fromPeer, masking(`P-${n}`)),
              comparable(fromEngine, masking(`E-${n}`)),
              label
            )
            if (fromEngine.status !== 204) return
            // Each order read back from both: what the peer wrote is what the engine wrote, but its id and time.
            const { headers } = sent("")
            const reads = [`E-${n}`, `P-${n}`].map((id): Sent => ({ method: "GET", path: `/orders/${id}`, headers }))
            const [[engineOrder], [peerOrder]] = yield* compareAll(servers, reads, () => undefined)
            const time = (text: string) =>
              text.replace(/"creation_datetime":"[^"]*"/, "\"creation_datetime\":\"<time>\"")
            assert.strictEqual(
              time(masking(`P-${n}`)(peerOrder.text)),
              time(masking(`E-${n}`)(engineOrder.text)),
              label
            )
            // Written once: the other server finds the id taken.
            yield* compareAll(servers, [sent(`E-${n}`), sent(`P-${n}`)], () => undefined)
          }), { discard: true })

        // After the writes, every list holds both servers' orders: the same bytes from each.
        const lists = [["main", tokens.admin], ["ful", tokens.site], ["c1", tokens.site], [
          "c1",
          tokens.client
        ]] as const
        yield* compareAll(servers, lists.map(([site, token]) => json("GET", "/orders", token, site)), () => undefined)
        yield* compareAll(
          servers,
          lists.map(([site, token]) => json("GET", "/orders?lines=false", token, site)),
          () => undefined
        )
      }))

    it.effect("cuts a chunked body over 1 MiB with the engine's 413", () =>
      Effect.gen(function*() {
        const servers = yield* Servers
        const big = JSON.stringify({ order_id: "BIG", ship_dock: "a".repeat(1024 * 1024) })
        yield* compareAll(servers, [{
          ...json("POST", "/orders", servers.tokens.admin, "main", {}),
          body: big,
          chunked: true
        }], () => undefined)
      }))

    it.effect("writes the engine's access line and counts requests as the engine does", () =>
      Effect.gen(function*() {
        const servers = yield* Servers
        const sent = json("GET", "/orders/SO-1", servers.tokens.admin, "main")
        const requestId = `fair-line-${kind}`
        yield* compareAll(servers, [sent], () => requestId)
        const [fromEngine, fromPeer] = [
          yield* accessLine(servers.engine, requestId),
          yield* accessLine(servers.peer, requestId)
        ]
        assert.deepStrictEqual(Object.keys(fromPeer).sort(), Object.keys(fromEngine).sort())
        for (const line of [fromEngine, fromPeer]) {
          const { duration_ms, timestamp, ...fields } = line
          assert.deepStrictEqual(fields, {
            logLevel: "INFO",
            message: "request",
            request_id: requestId,
            method: "GET",
            path: "/orders/SO-1",
            route: "/orders/:id",
            status: 200
          })
          assert.isNumber(duration_ms)
          assert.match(String(timestamp), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        }
        const counts = yield* orderReadCounts(servers.peer)
        assert.isAbove(counts.length, 3)
        assert.deepStrictEqual(counts, yield* orderReadCounts(servers.engine))
      }))
  })

fairPeerOn("sqlite")
fairPeerOn("postgres")
