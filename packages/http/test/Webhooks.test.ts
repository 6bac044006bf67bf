import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { EventSubscriptions, WebhookDeliveryPolicy } from "@wms/core"
import { WebhookWorker } from "@wms/http"
import { Deferred, Effect, Layer } from "effect"
import { createHmac } from "node:crypto"
import { onBothStores } from "../../../testing/databases.js"
import { insertSku } from "../../../testing/fixtures.js"
import { Api, testServer } from "../../../testing/server.js"
import {
  deliveredOrder,
  eventually,
  newSite,
  outOfOrder,
  raiseReceived,
  type Received,
  receiver
} from "./WebhooksReceiver.js"

// Short timings so retries, timeouts and giving up take well under a second each.
const fast = Layer.mergeAll(
  Layer.succeed(WebhookDeliveryPolicy, {
    timeoutMillis: 400,
    retryDelaysMillis: [100, 200, 300],
    retryForMillis: 2_500
  }),
  Layer.succeed(WebhookWorker.WebhookWorkerOptions, {
    pollIntervalMillis: 50,
    concurrency: 8,
    leaseMarginMillis: 1_000
  })
)

const servers = onBothStores((db) =>
  // The receivers listen on loopback.
  testServer(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url, { webhookAllowPrivate: true }).pipe(
    Layer.provide(fast)
  )
)

const dateTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

/** The signature by the Standard Webhooks scheme, computed here apart from the server's code. */
const expectedSignature = (secret: string, request: Received) =>
  "v1," + createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${request.headers["webhook-id"]}.${request.headers["webhook-timestamp"]}.${request.body}`)
    .digest("base64")

for (const [label, server] of servers) {
  layer(server, { timeout: 60_000, excludeTestServices: true })(`webhooks on ${label}`, (it) => {
    const setUp = Effect.gen(function*() {
      const api = yield* Api
      const token = yield* api.login()
      const site = yield* newSite(api, token)
      const create = (body: Record<string, unknown>, scope = site) =>
        Effect.gen(function*() {
          const created = yield* api.request("POST", "/webhooks", { token, site: scope, body })
          assert.strictEqual(created.status, 204, JSON.stringify(created.body))
          const list = yield* api.request("GET", "/webhooks", { token, site: scope })
          return list.body[list.body.length - 1].id as number
        })
      const deliveries = (id: number) =>
        Effect.map(api.request("GET", `/webhooks/${id}/deliveries`, { token, site }), (r) => r.body)
      return { api, token, site, create, deliveries }
    })

    it.effect("POST, GET, PUT and DELETE manage a webhook with the fields of §2.10", () =>
      Effect.gen(function*() {
        const { api, create, site, token } = yield* setUp
        const id = yield* create({ event_type: "order_shipped", url: "https://example.com/hook" })
        const got = yield* api.request("GET", `/webhooks/${id}`, { token, site })
        assert.strictEqual(got.status, 200)
        assert.match(got.body.created_at, dateTime)
        assert.deepStrictEqual({ ...got.body, created_at: "" }, {
          id,
          site_id: site,
          client_id: null,
          event_type: "order_shipped",
          url: "https://example.com/hook",
          secret: null,
          enabled: true,
          created_at: ""
        })
        const put = yield* api.request("PUT", `/webhooks/${id}`, {
          token,
          site,
          body: { event_type: "wave_started", url: "http://10.0.0.1:8080/x?y=1", secret: "s3cret", enabled: false }
        })
        assert.strictEqual(put.status, 204, JSON.stringify(put.body))
        const list = yield* api.request("GET", "/webhooks", { token, site })
        assert.deepStrictEqual(list.body, [{
          ...got.body,
          event_type: "wave_started",
          url: "http://10.0.0.1:8080/x?y=1",
          secret: "s3cret",
          enabled: false
        }])
        const deleted = yield* api.request("DELETE", `/webhooks/${id}`, { token, site })
        assert.strictEqual(deleted.status, 204)
        assert.deepStrictEqual((yield* api.request("GET", "/webhooks", { token, site })).body, [])
      }))

    it.effect("every operation on a missing webhook answers 404 Webhook niet gevonden", () =>
      Effect.gen(function*() {
        const { api, create, site, token } = yield* setUp
        const id = yield* create({ event_type: "order_shipped", url: "https://example.com/hook" })
        const other = yield* newSite(api, token)
        const body = { event_type: "order_shipped", url: "https://example.com/hook" }
        for (const [path, scope] of [[`/webhooks/${id + 1000}`, site], [`/webhooks/${id}`, other]] as const) {
          for (const method of ["GET", "PUT", "DELETE"] as const) {
            const response = yield* api.request(method, path, {
              token,
              site: scope,
              body: method === "PUT" ? body : undefined
            })
            assert.deepStrictEqual([response.status, response.body], [404, { message: "Webhook niet gevonden" }])
          }
          const log = yield* api.request("GET", `${path}/deliveries`, { token, site: scope })
          assert.deepStrictEqual([log.status, log.body], [404, { message: "Webhook niet gevonden" }])
        }
        const notInteger = yield* api.request("GET", "/webhooks/abc", { token, site })
        assert.strictEqual(notInteger.status, 400)
      }))

    it.effect("an unknown event_type or a url that is not absolute http(s) is refused with 400", () =>
      Effect.gen(function*() {
        const { api, site, token } = yield* setUp
        const post = (body: unknown) => api.request("POST", "/webhooks", { token, site, body })
        assert.deepStrictEqual((yield* post({ event_type: "order_created", url: "https://x.nl/" })).body, {
          message:
            "Invalid field event_type: must be one of order_shipped, order_allocated, wave_started, preadvice_received, " +
            "count_pending_approval, count_completed, order_backordered, hold_created, hold_released, transfer_shipped, transfer_received, return_received"
        })
        for (const url of ["ftp://x.nl/", "/relative", "not a url", "mailto:a@b.nl", "http://"]) {
          const response = yield* post({ event_type: "order_shipped", url })
          assert.deepStrictEqual([response.status, response.body], [400, {
            message: "Invalid field url: must be an absolute http(s) URL"
          }], url)
        }
        assert.deepStrictEqual((yield* post({ url: "https://x.nl/" })).body, { message: "Missing field event_type" })
        assert.deepStrictEqual((yield* post({ event_type: "order_shipped" })).body, { message: "Missing field url" })
        const notBoolean = yield* post({ event_type: "order_shipped", url: "https://x.nl/", enabled: "yes" })
        assert.strictEqual(notBoolean.status, 400)
        assert.deepStrictEqual((yield* api.request("GET", "/webhooks", { token, site })).body, [])
      }))

    it.effect("a client's webhook is seen by its client and its site only", () =>
      Effect.gen(function*() {
        const { api, token } = yield* setUp
        const site = `${yield* newSite(api, token)}f`
        const fulfillment = { site_id: site, name: site, fulfillment: true }
        yield* api.request("POST", "/sites", { token, site: "main", body: fulfillment })
        for (const client of [`${site}-a`, `${site}-b`]) {
          const body = { client_id: client, name: client }
          const added = yield* api.request("POST", "/clients", { token, site, body })
          assert.strictEqual(added.status, 204, JSON.stringify(added.body))
        }
        const body = { event_type: "preadvice_received", url: "https://x.nl/" }
        assert.strictEqual((yield* api.request("POST", "/webhooks", { token, site: `${site}-a`, body })).status, 204)
        const ofA = yield* api.request("GET", "/webhooks", { token, site: `${site}-a` })
        assert.deepStrictEqual(ofA.body.map((w: { client_id: string }) => w.client_id), [`${site}-a`])
        assert.strictEqual((yield* api.request("GET", "/webhooks", { token, site })).body.length, 1)
        assert.deepStrictEqual((yield* api.request("GET", "/webhooks", { token, site: `${site}-b` })).body, [])
        const fromB = yield* api.request("GET", `/webhooks/${ofA.body[0].id}`, { token, site: `${site}-b` })
        assert.strictEqual(fromB.status, 404)
      }))

    it.effect("a delivery posts the event with the documented headers and a valid signature", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        const hook = yield* receiver(() => 200)
        const plain = yield* receiver(() => 200)
        const id = yield* create({ event_type: "preadvice_received", url: hook.url, secret: "geheim-ü" })
        yield* create({ event_type: "preadvice_received", url: plain.url })
        const preAdviceId = yield* raiseReceived(api, token, site)
        yield* eventually(() => hook.received().length === 1 && plain.received().length === 1, () => "no delivery")
        const [request] = hook.received()
        const payload = JSON.parse(request.body)
        assert.strictEqual(request.headers["content-type"], "application/json")
        assert.strictEqual(request.headers["x-webhook-secret"], "geheim-ü")
        assert.strictEqual(request.headers["webhook-id"], String(payload.id))
        const timestamp = Number(request.headers["webhook-timestamp"])
        assert.isTrue(Math.abs(timestamp - Date.now() / 1000) < 30)
        assert.strictEqual(request.headers["webhook-signature"], expectedSignature("geheim-ü", request))
        const shown = yield* api.request("GET", `/preadvices/${preAdviceId}`, { token, site })
        assert.match(payload.created_at, dateTime)
        assert.deepStrictEqual(payload, {
          id: payload.id,
          event_type: "preadvice_received",
          site_id: site,
          client_id: null,
          created_at: payload.created_at,
          data: shown.body
        })
        assert.isNumber(payload.id)
        const [unsigned] = plain.received()
        assert.strictEqual(unsigned.body, request.body)
        assert.isUndefined(unsigned.headers["x-webhook-secret"])
        assert.isUndefined(unsigned.headers["webhook-signature"])
        assert.strictEqual(unsigned.headers["webhook-id"], String(payload.id))
        const log = yield* waitFor(deliveries(id), (l) => l[0]?.status === "delivered")
        assert.strictEqual(log.length, 1)
        assert.match(log[0].delivered_at ?? "", dateTime)
        assert.deepStrictEqual({ ...log[0], delivered_at: null, created_at: null }, {
          event_id: payload.id,
          event_type: "preadvice_received",
          status: "delivered",
          attempts: 1,
          last_status_code: 200,
          last_error: null,
          next_attempt_at: null,
          delivered_at: null,
          created_at: null
        })
        const deleted = yield* api.request("DELETE", `/webhooks/${id}`, { token, site })
        assert.strictEqual(deleted.status, 204, "a webhook with a delivery log is deleted with it")
        assert.strictEqual((yield* api.request("GET", `/webhooks/${id}/deliveries`, { token, site })).status, 404)
      }).pipe(Effect.scoped))

    it.effect("order_shipped carries the order as GET /orders/:id shows it, and only that type is sent", () =>
      Effect.gen(function*() {
        const { api, create, site, token } = yield* setUp
        const hook = yield* receiver(() => 200)
        yield* create({ event_type: "order_shipped", url: hook.url })
        const call = (method: "GET" | "POST", path: string, body?: unknown) =>
          Effect.tap(
            api.request(method, path, { token, site, body }),
            (response) => assert.isBelow(response.status, 300, `${method} ${path}: ${JSON.stringify(response.body)}`)
          )
        const preAdviceId = yield* raiseReceived(api, token, site)
        const skuId = (yield* call("GET", `/preadvices/${preAdviceId}`)).body.lines[0].sku_id
        yield* call("POST", "/orders", { order_id: "SO-1", lines: [{ sku_id: skuId, qty: 2 }] })
        yield* call("POST", "/wave-definitions", { description: "SO-1", criterium_id: 2, value: "SO-1", pick_type: 1 })
        const definition = (yield* call("GET", "/wave-definitions")).body.at(-1).id
        const wave = (yield* call("POST", "/waves/create", { wavedef_id: definition })).body.wave_id
        yield* call("POST", "/waves/start", { wave_id: wave })
        for (const task of (yield* call("GET", `/tasks?wave_id=${wave}`)).body) {
          yield* call("POST", `/tasks/${task.id}/confirm`, {})
        }
        yield* call("POST", "/orders/SO-1/ship", {})
        yield* eventually(() => hook.received().length === 1, () => "no delivery")
        const payload = JSON.parse(hook.received()[0].body)
        const order = (yield* call("GET", "/orders/SO-1")).body
        assert.deepStrictEqual([payload.event_type, payload.site_id, payload.client_id], ["order_shipped", site, null])
        assert.deepStrictEqual(payload.data, order)
        assert.strictEqual(order.order_status.id, 19)
        yield* Effect.sleep("300 millis")
        assert.strictEqual(hook.received().length, 1)
      }).pipe(Effect.scoped))

    it.effect("a 500 and a timeout are retried with the same webhook-id until a 2xx", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        const hook = yield* receiver(({ attempt }) => (attempt === 1 ? 500 : attempt === 2 ? "timeout" : 204))
        const id = yield* create({ event_type: "preadvice_received", url: hook.url, secret: "s" })
        yield* raiseReceived(api, token, site)
        yield* eventually(() => hook.received().length === 3, () => `${hook.received().length} requests`)
        const [first, second, third] = hook.received()
        assert.deepStrictEqual([first.answer, second.answer, third.answer], [500, "timeout", 204])
        assert.strictEqual(new Set(hook.received().map((r) => r.headers["webhook-id"])).size, 1)
        assert.strictEqual(first.body, third.body)
        for (const request of hook.received()) {
          assert.strictEqual(request.headers["webhook-signature"], expectedSignature("s", request))
        }
        const log = yield* waitFor(deliveries(id), (l) => l[0]?.status === "delivered")
        assert.deepStrictEqual([log[0].attempts, log[0].last_status_code, log[0].last_error], [3, 204, null])
        assert.strictEqual(hook.received().length, 3)
      }).pipe(Effect.scoped))

    it.effect("the deliveries log shows a pending retry with its status, error and next attempt", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        const hook = yield* receiver(() => 503)
        const id = yield* create({ event_type: "preadvice_received", url: hook.url })
        yield* raiseReceived(api, token, site)
        const log = yield* waitFor(deliveries(id), (l) => l[0]?.attempts >= 1 && l[0]?.last_status_code === 503)
        assert.strictEqual(log[0].status, "pending")
        assert.strictEqual(log[0].last_error, "HTTP 503")
        assert.match(log[0].next_attempt_at, dateTime)
        assert.isNull(log[0].delivered_at)
      }).pipe(Effect.scoped))

    it.effect("events of one webhook arrive in order, each after the one before was delivered", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        // Every event fails on its first attempt and every other one also on its second.
        const hook = yield* receiver(({ attempt, eventId }) =>
          attempt === 1 || (attempt === 2 && eventId % 2 === 0) ? 500 : 200
        )
        const id = yield* create({ event_type: "preadvice_received", url: hook.url })
        for (let i = 0; i < 4; i++) yield* raiseReceived(api, token, site)
        const log: ReadonlyArray<{ event_id: number; status: string }> = yield* waitFor(
          deliveries(id),
          (l) => l.length === 4 && l.every((d: { status: string }) => d.status === "delivered")
        )
        const logIds = log.map((d) => d.event_id)
        assert.deepStrictEqual(logIds, [...logIds].sort((a, b) => b - a), "the log is newest first")
        const eventIds = [...logIds].reverse()
        assert.deepStrictEqual(deliveredOrder(hook.received()), eventIds)
        assert.deepStrictEqual(outOfOrder(hook.received(), eventIds), [])
      }).pipe(Effect.scoped))

    it.effect("a delivery that keeps failing is marked failed, and the next event goes", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        let failing: number | undefined
        const hook = yield* receiver(({ eventId }) => {
          failing ??= eventId
          return eventId === failing ? 500 : 200
        })
        const id = yield* create({ event_type: "preadvice_received", url: hook.url })
        yield* raiseReceived(api, token, site)
        yield* raiseReceived(api, token, site)
        const log = yield* waitFor(deliveries(id), (l) => l.length === 2 && l[0].status === "delivered")
        assert.strictEqual(log[1].status, "failed")
        assert.isNull(log[1].next_attempt_at)
        assert.isAtLeast(log[1].attempts, 3)
        const attempts = hook.received().filter((r) => r.eventId === failing)
        assert.strictEqual(attempts.length, log[1].attempts)
        assert.deepStrictEqual(outOfOrder(hook.received().filter((r) => r.eventId !== failing), [log[0].event_id]), [])
      }).pipe(Effect.scoped))

    it.effect("a disabled webhook gets nothing, and the events raised meanwhile are skipped", () =>
      Effect.gen(function*() {
        const { api, create, deliveries, site, token } = yield* setUp
        const hook = yield* receiver(() => 200)
        const id = yield* create({ event_type: "preadvice_received", url: hook.url, enabled: false })
        yield* raiseReceived(api, token, site)
        yield* Effect.sleep("500 millis")
        assert.deepStrictEqual(hook.received(), [])
        assert.deepStrictEqual(yield* deliveries(id), [])
        const enabled = yield* api.request("PUT", `/webhooks/${id}`, {
          token,
          site,
          body: { event_type: "preadvice_received", url: hook.url }
        })
        assert.strictEqual(enabled.status, 204)
        yield* raiseReceived(api, token, site)
        yield* eventually(() => hook.received().length === 1, () => "no delivery")
        yield* Effect.sleep("300 millis")
        assert.strictEqual(hook.received().length, 1)
        assert.strictEqual((yield* deliveries(id)).length, 1)
      }).pipe(Effect.scoped))

    it.effect("a client's webhook receives that client's events only; the site's receives all", () =>
      Effect.gen(function*() {
        const { api, token } = yield* setUp
        const site = `${yield* newSite(api, token)}f`
        const fulfillment = { site_id: site, name: site, fulfillment: true }
        yield* api.request("POST", "/sites", { token, site: "main", body: fulfillment })
        for (const client of [`${site}-a`, `${site}-b`]) {
          yield* api.request("POST", "/clients", { token, site, body: { client_id: client, name: client } })
        }
        const ofSite = yield* receiver(() => 200)
        const ofA = yield* receiver(() => 200)
        for (const [scope, url] of [[site, ofSite.url], [`${site}-a`, ofA.url]]) {
          const body = { event_type: "preadvice_received", url }
          assert.strictEqual((yield* api.request("POST", "/webhooks", { token, site: scope, body })).status, 204)
        }
        yield* raiseReceived(api, token, site, `${site}-b`)
        yield* raiseReceived(api, token, site, `${site}-a`)
        yield* eventually(() => ofSite.received().length === 2 && ofA.received().length === 1, () => "missing")
        yield* Effect.sleep("300 millis")
        assert.deepStrictEqual(ofA.received().map((r) => JSON.parse(r.body).client_id), [`${site}-a`])
        assert.deepStrictEqual(ofSite.received().map((r) => JSON.parse(r.body).client_id), [`${site}-b`, `${site}-a`])
      }).pipe(Effect.scoped))

    if (label === "postgres") {
      it.effect("an event committed late is still sent before the events with higher ids", () =>
        Effect.gen(function*() {
          const { api, create, site, token } = yield* setUp
          const sql = yield* SqlClient.SqlClient
          const hook = yield* receiver(() => 200)
          yield* create({ event_type: "preadvice_received", url: hook.url })
          yield* insertSku({ sku_id: `${site}-SKU`, site_id: site })
          const body = { pre_advice_id: "PA-LATE", lines: [{ sku_id: `${site}-SKU`, qty: 1 }] }
          assert.strictEqual((yield* api.request("POST", "/preadvices", { token, site, body })).status, 204)
          // A transaction draws the lower id and stays open while a later one commits a higher id.
          const held = yield* sql.withTransaction(Effect.gen(function*() {
            const [row] = yield* sql<{ id: number }>`INSERT INTO events ${
              sql.insert({
                event_type: "preadvice_received",
                site_id: site,
                client_id: null,
                created_at: new Date().toISOString(),
                data: JSON.stringify({ held: true })
              })
            } RETURNING id`
            const received = yield* api.request("POST", "/preadvices/PA-LATE/receive", { token, site, body: {} })
            assert.strictEqual(received.status, 204)
            yield* Effect.sleep("1 second")
            assert.deepStrictEqual(hook.received(), [], "a higher id went out while a lower one was uncommitted")
            return row.id
          }))
          yield* eventually(() => hook.received().length === 2, () => `${hook.received().length} deliveries`)
          const sent = hook.received().map((r) => r.eventId)
          assert.strictEqual(sent[0], held)
          assert.isAbove(sent[1], held)
        }).pipe(Effect.scoped))
    }

    it.effect("in-process subscribers get the events after commit, by type or all", () =>
      Effect.gen(function*() {
        const { api, site, token } = yield* setUp
        const subscriptions = yield* EventSubscriptions
        const typed = yield* Deferred.make<unknown>()
        const all: Array<{ event_type: string; site_id: string }> = []
        yield* subscriptions.subscribe("preadvice_received", (event) =>
          event.site_id === site ? Deferred.succeed(typed, event) : Effect.void)
        const waves: Array<unknown> = []
        yield* subscriptions.subscribe("wave_started", (event) =>
          Effect.sync(() =>
            event.site_id === site && waves.push(event)
          ))
        yield* subscriptions.subscribe("*", (event) =>
          Effect.sync(() => event.site_id === site && all.push(event)))
        yield* subscriptions.subscribe("*", () => Effect.fail("a failing subscriber does not stop the others"))
        const preAdviceId = yield* raiseReceived(api, token, site)
        const event = (yield* Deferred.await(typed).pipe(Effect.timeout("10 seconds"))) as {
          event_type: string
          data: { pre_advice_id: string }
          created_at: string
        }
        assert.strictEqual(event.event_type, "preadvice_received")
        assert.strictEqual(event.data.pre_advice_id, preAdviceId)
        assert.match(event.created_at, dateTime)
        yield* eventually(() => all.length === 1, () => `${all.length} events`)
        assert.deepStrictEqual(waves, [])
      }).pipe(Effect.scoped))
  })
}

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
