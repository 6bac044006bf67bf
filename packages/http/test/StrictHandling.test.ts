/**
 * Fields a body's endpoint does not know: ignored by default; with `Prefer: handling=strict` (RFC
 * 7240) a 400 naming the first, while the record's read-only fields (what a GET shows) are still
 * ignored, so every record can be sent back as it was read. Against the bundled server, so the hot
 * `POST /orders` front is held to it too (`HotRoutes.test.ts` holds it equal to the `HttpApi`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminEmail, adminPassword, Api, serverOnApiTestStores, type TestResponse } from "../../../testing/server.js"
import { callerFor, expect204, lastId, unique } from "../../../testing/world.js"

const strict = { prefer: "handling=strict" }

const applied = (response: TestResponse) => response.headers["preference-applied"]

/** Asserts a 204 under strict handling, which the answer says it applied. */
const expectStrict204 = (response: TestResponse, what: string) => {
  assert.deepStrictEqual([response.status, response.body, applied(response)], [204, undefined, "handling=strict"], what)
}

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`fields a body does not know, on ${label}`, (it) => {
    /** Requests as the admin on site main, strict or not. */
    const admin = Effect.gen(function*() {
      const api = yield* Api
      const token = yield* api.login()
      const send = (method: "POST" | "PUT", path: string, body: unknown, headers: Record<string, string> = {}) =>
        api.request(method, path, { token, site: "main", body, headers })
      return {
        main: yield* callerFor(token, "main"),
        send,
        strictly: (method: "POST" | "PUT", path: string, body: unknown) => send(method, path, body, strict)
      }
    })

    it.effect("are ignored by default, and no preference is applied", () =>
      Effect.gen(function*() {
        const { main, send } = yield* admin
        const name = unique("Ignored")
        const created = yield* send("POST", "/customers", { name, colour: "red" })
        assert.deepStrictEqual([created.status, applied(created)], [204, undefined])
        const orderId = unique("IGNORED")
        const lines = [{ sku_id: "X", qty: 1, colour: 1 }]
        const order = yield* send("POST", "/orders", { order_id: orderId, colour: "red", lines })
        // The line's SKU does not exist: the unknown fields were not what stopped it.
        assert.deepStrictEqual([order.status, order.body], [400, {
          message: "Invalid field lines.0.sku_id: sku X does not exist"
        }])
        expect204(yield* send("POST", "/orders", { order_id: orderId, colour: "red" }))
        assert.strictEqual((yield* main.get(`/orders/${orderId}`)).status, 200)
      }))

    it.effect("with Prefer: handling=strict are a 400 naming the first, at any depth, and nothing is written", () =>
      Effect.gen(function*() {
        const { main, strictly } = yield* admin
        const refused = (response: TestResponse, field: string) =>
          assert.deepStrictEqual(
            [response.status, response.body, applied(response)],
            [400, { message: `Unknown field ${field}` }, "handling=strict"]
          )
        const name = unique("Strict")
        refused(yield* strictly("POST", "/customers", { name, colour: "red" }), "colour")
        assert.notInclude(JSON.stringify((yield* main.get("/customers")).body), name)

        expect204(yield* main.post("/skus", { sku_id: unique("S"), description: "Bolt" }))
        const sku = (yield* main.get("/skus")).body.at(-1).sku_id
        const orderId = unique("STRICT")
        const colouredLine = { sku_id: sku, qty: 1, colour: "red" }
        refused(yield* strictly("POST", "/orders", { order_id: orderId, lines: [colouredLine] }), "lines.0.colour")
        // Named as unknown before the schema misses the field it was meant to be.
        refused(yield* strictly("POST", "/orders", { ordr_id: orderId }), "ordr_id")
        assert.strictEqual((yield* main.get(`/orders/${orderId}`)).status, 404)

        expectStrict204(yield* strictly("POST", "/orders", { order_id: orderId }), "a known body")
        const lines = `/orders/${orderId}/lines`
        refused(yield* strictly("POST", lines, [{ sku_id: sku, qty: 1 }, colouredLine]), "1.colour")
        const customer = { id: 1, name: "x", vip: true }
        refused(yield* strictly("PUT", `/orders/${orderId}`, { customer }), "customer.vip")
        refused(yield* strictly("PUT", `/orders/${orderId}`, { lines: [colouredLine] }), "lines.0.colour")
        assert.deepStrictEqual((yield* main.get(`/orders/${orderId}`)).body.lines, [])

        const login = { email: adminEmail, password: adminPassword, remember: true }
        refused(yield* strictly("POST", "/login", login), "remember")
      }))

    it.effect("follow the first handling preference of the Prefer header, in any of its forms", () =>
      Effect.gen(function*() {
        const { send } = yield* admin
        const unknown = (prefer: string) =>
          send("POST", "/customers", { name: unique("Prefer"), colour: "red" }, { prefer })
        for (const prefer of ["respond-async, handling=strict; wait=5", `HANDLING="strict"`, "handling = strict"]) {
          const response = yield* unknown(prefer)
          assert.deepStrictEqual([response.status, applied(response)], [400, "handling=strict"], prefer)
        }
        for (const prefer of ["handling=lenient", "handling=lenient, handling=strict", "strict", "return=minimal"]) {
          const response = yield* unknown(prefer)
          assert.deepStrictEqual([response.status, applied(response)], [204, undefined], prefer)
        }
        const unread = yield* (yield* Api).request("POST", "/customers", { body: { name: "x" }, headers: strict })
        assert.deepStrictEqual([unread.status, applied(unread)], [401, undefined], "a body not read is not handled")
      }))

    it.effect(
      "every record may be sent back strictly as a GET shows it: its read-only fields are ignored",
      () =>
        Effect.gen(function*() {
          const { main, strictly } = yield* admin
          const echo = (read: string, write: string, method: "POST" | "PUT" = "PUT") =>
            Effect.gen(function*() {
              const record = yield* main.get(read)
              assert.strictEqual(record.status, 200, read)
              expectStrict204(yield* strictly(method, write, record.body), `${read} sent back to ${method} ${write}`)
            })

          const partners: Record<string, number> = {}
          for (const kind of ["customers", "suppliers"]) {
            expect204(yield* main.post(`/${kind}`, { name: unique("Echo"), town: "Utrecht" }))
            partners[kind] = yield* lastId(main, `/${kind}`)
            yield* echo(`/${kind}/${partners[kind]}`, `/${kind}/${partners[kind]}`)
          }
          expect204(yield* main.post("/carriers", { name: unique("Echo") }))
          const carrier = yield* lastId(main, "/carriers")
          yield* echo(`/carriers/${carrier}`, `/carriers/${carrier}`)

          expect204(yield* main.post("/skugroups", { description: "Echo" }))
          const group = (yield* main.get("/skugroups")).body.at(-1).sku_group_id
          yield* echo(`/skugroups/${group}`, `/skugroups/${group}`)
          const sku = unique("ECHO")
          expect204(yield* main.post("/skus", { sku_id: sku, description: "Echo", sku_group: group }))
          yield* echo(`/skus/${sku}`, `/skus/${sku}`)
          const skuListed = (yield* main.get("/skus")).body.find((item: { sku_id: string }) => item.sku_id === sku)
          expectStrict204(yield* strictly("PUT", `/skus/${sku}`, skuListed), "a SKU as GET /skus lists it")

          const orderId = unique("ECHO")
          const newOrder = { order_id: orderId, customer_id: partners.customers, lines: [{ sku_id: sku, qty: 2 }] }
          expect204(yield* main.post("/orders", newOrder))
          yield* echo(`/orders/${orderId}`, `/orders/${orderId}`)
          yield* echo(`/orders/${orderId}/lines/1`, `/orders/${orderId}/lines/1`)
          const order = (yield* main.get(`/orders/${orderId}`)).body
          const copy = { ...order, order_id: unique("COPY"), customer_id: null }
          expectStrict204(yield* strictly("POST", "/orders", copy), "an order read, as a new one")
          const line = { ...order.lines[0], line: 2 }
          expectStrict204(yield* strictly("POST", `/orders/${orderId}/lines`, [line]), "a line read, as a new one")
          const listed = (yield* main.get("/orders")).body.find((item: { order_id: string }) =>
            item.order_id === orderId
          )
          expectStrict204(yield* strictly("PUT", `/orders/${orderId}`, listed), "an order as GET /orders lists it")

          const preAdviceId = unique("ECHO")
          expect204(yield* main.post("/preadvices", { pre_advice_id: preAdviceId, lines: [{ sku_id: sku, qty: 5 }] }))
          yield* echo(`/preadvices/${preAdviceId}`, `/preadvices/${preAdviceId}`)
          yield* echo(`/preadvices/${preAdviceId}/lines/1`, `/preadvices/${preAdviceId}/lines/1`)
          const preAdvices = (yield* main.get("/preadvices")).body as Array<{ pre_advice_id: string }>
          const preAdviceListed = preAdvices.find((item) => item.pre_advice_id === preAdviceId)
          expectStrict204(
            yield* strictly("PUT", `/preadvices/${preAdviceId}`, preAdviceListed),
            "a pre-advice as listed"
          )

          const waveDefinition = { description: "Echo", criterium_id: 2, value: orderId, pick_type: 1 }
          expect204(yield* main.post("/wave-definitions", waveDefinition))
          const definition = yield* lastId(main, "/wave-definitions")
          yield* echo(`/wave-definitions/${definition}`, `/wave-definitions/${definition}`)

          // A public address: no name to resolve, nothing a rule on webhook targets refuses.
          const hook = { event_type: "order_shipped", url: "https://93.184.215.14/hook", secret: "s" }
          expect204(yield* main.post("/webhooks", hook))
          const webhook = yield* lastId(main, "/webhooks")
          yield* echo(`/webhooks/${webhook}`, `/webhooks/${webhook}`)

          const email = `${unique("echo")}@example.com`
          expect204(yield* main.post("/users", { email, password: "a-long-password", name: "Echo", site: "main" }))
          const user = (yield* main.get("/users")).body.find((item: { email: string }) => item.email === email)
          expectStrict204(yield* strictly("PUT", `/users/${user.userId}`, user), "a user as GET /users lists it")
          const newUser = { ...user, email: `x-${email}`, password: "a-long-password" }
          expectStrict204(yield* strictly("POST", "/users", newUser), "a user read, as a new one")

          const site = (yield* main.get("/sites")).body.find((item: { site_id: string }) => item.site_id === "main")
          const newSite = { ...site, site_id: unique("ECHO") }
          expectStrict204(yield* strictly("POST", "/sites", newSite), "a site read, as a new one")
        }),
      60_000
    )
  })
}
