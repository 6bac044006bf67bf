import { SqlClient } from "@effect/sql"
import { assert, describe, it, layer } from "@effect/vitest"
import { WebhookDeliveryPolicy } from "@wms/core"
import { WebhookWorker } from "@wms/http"
import { Effect, Layer } from "effect"
import type { LookupAddress } from "node:dns"
import { createServer } from "node:http"
import { freshSqliteFile, onApiTestStores } from "../../../testing/databases.js"
import { Api, testServer } from "../../../testing/server.js"
import { eventually, newSite, raiseReceived, receiver } from "./WebhooksReceiver.js"

// Names resolved without DNS: the worker's lookup is the one under test, the addresses loopback.
const names: Record<string, ReadonlyArray<LookupAddress>> = {
  "receiver.test": [{ address: "127.0.0.1", family: 4 }]
}

const resolve: WebhookWorker.Resolve = (hostname) =>
  hostname in names
    ? Promise.resolve(names[hostname])
    : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }))

// Short timings so that a retry comes within a second.
const fast = Layer.mergeAll(
  Layer.succeed(WebhookDeliveryPolicy, { timeoutMillis: 1_000, retryDelaysMillis: [100], retryForMillis: 60_000 }),
  Layer.succeed(WebhookWorker.WebhookWorkerOptions, {
    pollIntervalMillis: 50,
    concurrency: 8,
    leaseMarginMillis: 1_000
  }),
  Layer.succeed(WebhookWorker.WebhookResolver, resolve)
)

const waitFor = <A>(read: Effect.Effect<A>, check: (a: A) => boolean, timeoutMillis = 20_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMillis
    while (true) {
      const value = yield* read
      if (check(value)) return value
      if (Date.now() > deadline) return yield* Effect.dieMessage(`timed out: ${JSON.stringify(value)}`)
      yield* Effect.sleep("50 millis")
    }
  })

const setUp = Effect.gen(function*() {
  const api = yield* Api
  const token = yield* api.login()
  const site = yield* newSite(api, token)
  const create = (body: Record<string, unknown>) =>
    Effect.gen(function*() {
      const created = yield* api.request("POST", "/webhooks", { token, site, body })
      assert.strictEqual(created.status, 204, JSON.stringify(created.body))
      const list = yield* api.request("GET", "/webhooks", { token, site })
      return list.body[list.body.length - 1].id as number
    })
  const deliveries = (id: number) =>
    Effect.map(api.request("GET", `/webhooks/${id}/deliveries`, { token, site }), (r) => r.body)
  return { api, token, site, create, deliveries }
})

/** A server on loopback that answers every request with a redirect to `location`; counts them. */
const redirector = (location: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly requests: () => number; readonly close: () => Promise<void> }>(
      (resume) => {
        let requests = 0
        const server = createServer((request, response) => {
          request.resume()
          request.on("end", () => {
            requests++
            response.writeHead(307, { location }).end()
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          const port = typeof address === "object" && address !== null ? address.port : 0
          resume(Effect.succeed({
            url: `http://127.0.0.1:${port}/hook`,
            requests: () => requests,
            close: () =>
              new Promise<void>((done) => {
                server.closeAllConnections()
                server.close(() => done())
              })
          }))
        })
      }
    ),
    ({ close }) => Effect.promise(close)
  )

const refusedUrls: ReadonlyArray<readonly [string, string]> = [
  ["http://169.254.169.254/latest/meta-data/", "a cloud metadata address"],
  ["http://localhost:5432/", "a loopback address"],
  ["http://[::1]:9/", "a loopback address"],
  ["http://0.0.0.0:9/", "an unspecified address"],
  ["http://2130706433:9/", "a loopback address"],
  ["http://0x7f.1/", "a loopback address"],
  ["http://017700000001/", "a loopback address"],
  ["http://app.localhost./hook", "a loopback address"],
  ["http://[::ffff:127.0.0.1]/", "a loopback address"],
  ["https://10.0.0.1:8080/x?y=1", "a private address"],
  ["http://[::ffff:192.168.0.1]/", "a private address"],
  ["http://100.64.0.1/", "a private address"],
  ["http://[fe80::1]/", "a link-local address"],
  ["http://[fd12::1]/", "a unique-local address"],
  ["http://224.0.0.1/", "a multicast address"],
  ["http://255.255.255.255/", "the broadcast address"],
  ["http://[fd00:ec2::254]/", "a cloud metadata address"],
  ["http://metadata.google.internal/computeMetadata/v1/", "a cloud metadata address"]
]

for (
  const [label, server] of onApiTestStores((db) =>
    testServer(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url).pipe(Layer.provide(fast))
  )
) {
  layer(server, { timeout: 60_000, excludeTestServices: true })(`webhook targets on ${label}`, (it) => {
    it.effect("POST and PUT refuse a URL of a non-public target with a 400 naming it, and write nothing", () =>
      Effect.gen(function*() {
        const { api, create, site, token } = yield* setUp
        const id = yield* create({ event_type: "order_shipped", url: "https://example.com/hook", enabled: false })
        const before = (yield* api.request("GET", "/webhooks", { token, site })).body
        for (const [url, what] of refusedUrls) {
          const message = `Invalid field url: ${url} targets ${what}, not a public one`
          const body = { event_type: "order_shipped", url }
          const posted = yield* api.request("POST", "/webhooks", { token, site, body })
          assert.deepStrictEqual([posted.status, posted.body], [400, { message }], url)
          const put = yield* api.request("PUT", `/webhooks/${id}`, { token, site, body })
          assert.deepStrictEqual([put.status, put.body], [400, { message }], url)
        }
        assert.deepStrictEqual((yield* api.request("GET", "/webhooks", { token, site })).body, before)
      }))

    it.effect("a name that resolves to loopback is refused at every delivery attempt, and nothing is sent", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        const hook = yield* receiver(() => 200)
        const url = hook.url.replace("127.0.0.1", "receiver.test")
        const id = yield* create({ event_type: "preadvice_received", url })
        yield* raiseReceived(api, token, site)
        const log = yield* waitFor(deliveries(id), (l) => l[0]?.attempts >= 2)
        assert.deepStrictEqual([log[0].status, log[0].last_status_code, log[0].last_error], [
          "pending",
          null,
          "Refused: receiver.test resolves to 127.0.0.1, a loopback address"
        ])
        assert.deepStrictEqual(hook.received(), [])
      }).pipe(Effect.scoped))

    it.effect("a URL stored before the rule is checked again at delivery", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        const sql = yield* SqlClient.SqlClient
        const hook = yield* receiver(() => 200)
        const id = yield* create({ event_type: "preadvice_received", url: "https://example.com/hook", enabled: false })
        yield* sql`UPDATE webhooks SET url = ${hook.url}, enabled = 1 WHERE id = ${id}`
        yield* raiseReceived(api, token, site)
        // An attempt counts when its delivery is leased; its error is written when it ends.
        const log = yield* waitFor(deliveries(id), (l) => l[0]?.last_error != null)
        assert.deepStrictEqual([log[0].status, log[0].last_status_code, log[0].last_error], [
          "pending",
          null,
          `Refused: ${hook.url} targets a loopback address, not a public one`
        ])
        assert.deepStrictEqual(hook.received(), [])
      }).pipe(Effect.scoped))
  })
}

layer(
  Layer.unwrapScoped(
    Effect.map(
      freshSqliteFile,
      (file) => testServer(`sqlite:${file}`, { webhookAllowPrivate: true }).pipe(Layer.provide(fast))
    )
  ),
  { timeout: 60_000, excludeTestServices: true }
)("webhook targets with private targets allowed", (it) => {
  it.effect("a delivery connects to the address its checked lookup gave", () =>
    Effect.gen(function*() {
      const { api, create, deliveries, site, token } = yield* setUp
      const hook = yield* receiver(() => 200)
      const url = hook.url.replace("127.0.0.1", "receiver.test")
      const id = yield* create({ event_type: "preadvice_received", url })
      yield* raiseReceived(api, token, site)
      const log = yield* waitFor(deliveries(id), (l) => l[0]?.status === "delivered")
      assert.strictEqual(log[0].attempts, 1)
      assert.strictEqual(hook.received()[0].headers.host, new URL(url).host)
    }).pipe(Effect.scoped))

  it.effect("a redirect is not followed: a 3xx is a failed attempt, retried", () =>
    Effect.gen(function*() {
      const { api, create, deliveries, site, token } = yield* setUp
      const target = yield* receiver(() => 200)
      const redirecting = yield* redirector(target.url)
      const id = yield* create({ event_type: "preadvice_received", url: redirecting.url })
      yield* raiseReceived(api, token, site)
      const log = yield* waitFor(deliveries(id), (l) => l[0]?.attempts >= 2)
      assert.deepStrictEqual([log[0].status, log[0].last_status_code, log[0].last_error], ["pending", 307, "HTTP 307"])
      yield* eventually(() => redirecting.requests() >= 2, () => "no retry")
      assert.deepStrictEqual(target.received(), [])
    }).pipe(Effect.scoped))

  it.effect("cloud metadata stays refused", () =>
    Effect.gen(function*() {
      const { api, site, token } = yield* setUp
      const url = "http://169.254.169.254/latest/meta-data/"
      const body = { event_type: "order_shipped", url }
      const posted = yield* api.request("POST", "/webhooks", { token, site, body })
      assert.deepStrictEqual([posted.status, posted.body], [400, {
        message: `Invalid field url: ${url} targets a cloud metadata address, not a public one`
      }])
    }))
})

describe("the worker's lookup", () => {
  const lookUp = (addresses: ReadonlyArray<LookupAddress>, allowPrivate: boolean, options: object) =>
    new Promise<{ readonly error: Error | null; readonly address: unknown; readonly family: unknown }>((done) =>
      WebhookWorker.checkedLookup(() => Promise.resolve(addresses), allowPrivate)(
        "host.test",
        options,
        (error, address, family) => done({ error, address, family })
      )
    )
  const publicV4 = { address: "93.184.216.34", family: 4 }
  const publicV6 = { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 }

  it("refuses a name when any of its addresses is refused", async () => {
    const refused = await lookUp([publicV4, { address: "::ffff:10.0.0.1", family: 6 }], false, { all: true })
    assert.strictEqual(refused.error?.message, "Refused: host.test resolves to ::ffff:10.0.0.1, a private address")
    const metadata = await lookUp([{ address: "169.254.169.254", family: 4 }], true, {})
    assert.strictEqual(
      metadata.error?.message,
      "Refused: host.test resolves to 169.254.169.254, a cloud metadata address"
    )
  })

  it("hands the connection the addresses it checked, of the family asked for", async () => {
    assert.deepStrictEqual(await lookUp([publicV4, publicV6], false, { all: true }), {
      error: null,
      address: [publicV4, publicV6],
      family: undefined
    })
    assert.deepStrictEqual(await lookUp([publicV4, publicV6], false, { family: 6 }), {
      error: null,
      address: publicV6.address,
      family: 6
    })
    assert.deepStrictEqual(await lookUp([publicV4, publicV6], false, {}), {
      error: null,
      address: publicV4.address,
      family: 4
    })
    const loopback = { address: "127.0.0.1", family: 4 }
    assert.deepStrictEqual(await lookUp([loopback], true, { all: true }), {
      error: null,
      address: [loopback],
      family: undefined
    })
    const none = await lookUp([publicV4], false, { family: 6 })
    assert.strictEqual((none.error as NodeJS.ErrnoException | null)?.code, "ENOTFOUND")
  })
})
