import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"

/** The windows a counted list is read in: a page, a later page, none, one past the end. */
const windows = [
  { limit: 1, offset: 0 },
  { limit: 2, offset: 1 },
  { limit: 0, offset: 0 },
  { limit: 0, offset: 2 },
  { limit: 3, offset: 100 }
]

// Every list endpoint of the API (DECISIONS §9: optional limit and offset on each).
const lists = [
  "/sites",
  "/clients",
  "/users",
  "/customers",
  "/suppliers",
  "/carriers",
  "/skus",
  "/skugroups",
  "/orders",
  "/preadvices",
  "/inventory/overview",
  "/inventory/transactions",
  "/inventory/lostandfound",
  "/wave-definitions",
  "/waves",
  "/tasks",
  "/webhooks"
]

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`list windows on ${label}`, (it) => {
    it.effect("every list takes limit and offset, and refuses a limit that is not a whole number", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        for (const path of lists) {
          const whole = yield* api.request("GET", path, { token, site: "main" })
          assert.strictEqual(whole.status, 200, path)
          const none = yield* api.request("GET", `${path}?limit=0`, { token, site: "main" })
          assert.deepStrictEqual([path, none.status, none.body], [path, 200, []])
          // One message for every value out of range, the first too large included.
          for (const limit of ["ten", "-1", "1.5", "1000000000"]) {
            const bad = yield* api.request("GET", `${path}?limit=${limit}`, { token, site: "main" })
            assert.deepStrictEqual([path, bad.status, bad.body], [path, 400, {
              message: "Invalid field limit: must be a whole number from 0 to 999999999"
            }])
          }
          const largest = yield* api.request("GET", `${path}?offset=999999999`, { token, site: "main" })
          assert.deepStrictEqual([path, largest.status, largest.body], [path, 200, []])
        }
      }))

    it.effect("limit and offset pick a slice of the whole list", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        for (const site_id of ["list-a", "list-b", "list-c"]) {
          yield* api.request("POST", "/sites", { token, site: "main", body: { site_id, name: site_id } })
        }
        const whole = yield* api.request("GET", "/sites", { token, site: "main" })
        const slice = yield* api.request("GET", "/sites?limit=2&offset=1", { token, site: "main" })
        assert.deepStrictEqual(slice.body, whole.body.slice(1, 3))
        const tail = yield* api.request("GET", "/sites?offset=2", { token, site: "main" })
        assert.deepStrictEqual(tail.body, whole.body.slice(2))
      }))

    it.effect("a list read with limit answers X-Total-Count, the records its filters match; without limit, none", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const call = (method: "GET" | "POST" | "PUT", path: string, body?: unknown) =>
          api.request(method, path, { token, site: "main", body })
        const created = (method: "POST" | "PUT", path: string, body: unknown) =>
          Effect.map(call(method, path, body), (answer) => {
            assert.isBelow(answer.status, 300, `${path}: ${JSON.stringify(answer.body)}`)
            return answer.body
          })
        for (const sku_id of ["T-1", "T-2", "T-3"]) yield* created("POST", "/skus", { sku_id, description: sku_id })
        for (const name of ["One", "Two"]) {
          yield* created("POST", "/customers", { name, town: "Town" })
          yield* created("POST", "/suppliers", { name, town: "Town" })
          yield* created("POST", "/carriers", { name })
          yield* created("POST", "/skugroups", { description: name })
        }
        for (const [loc_id, zone] of [["TA-1", "A"], ["TA-2", "A"], ["TA-3", "A"], ["TB-1", "B"]]) {
          yield* created("POST", "/locations", { loc_id, loc_type: "Storage", zone })
        }
        yield* created("POST", "/locations", { loc_id: "TF-1", loc_type: "PickFace", zone: "B" })
        for (const sku_id of ["T-1", "T-2", "T-3"]) {
          yield* created("POST", "/inventory/adjustments", { sku_id, loc_id: "TA-1", qty: 10 })
          yield* created("PUT", `/pick-faces/${sku_id}/TF-1`, { min_qty: 1, max_qty: 5 })
        }
        yield* created("POST", "/movement-tasks", { sku_id: "T-3", from_loc_id: "TA-1", qty: 1, to_loc_id: "TA-3" })
        yield* created("POST", "/movement-tasks", { sku_id: "T-3", from_loc_id: "TA-1", qty: 1, to_loc_id: "TB-1" })
        yield* created("POST", "/counts", { loc_id: "TA-2" })
        yield* created("POST", "/counts", { loc_id: "TB-1" })
        yield* created("POST", "/orders", {
          order_id: "TO-1",
          lines: [{ sku_id: "T-1", qty: 1 }, { sku_id: "T-2", qty: 1 }, { sku_id: "T-3", qty: 1 }]
        })
        for (const order_id of ["TO-2", "TO-3", "TO-4"]) yield* created("POST", "/orders", { order_id })
        yield* created("POST", "/preadvices", {
          pre_advice_id: "TP-1",
          lines: [{ sku_id: "T-1", qty: 5 }, { sku_id: "T-2", qty: 5 }]
        })
        yield* created("POST", "/wave-definitions", {
          description: "TO-1",
          criterium_id: 2,
          value: "TO-1",
          pick_type: 1
        })
        const definitions = yield* call("GET", "/wave-definitions")
        const wave = yield* created("POST", "/waves/create", { wavedef_id: definitions.body.at(-1).id })
        yield* created("POST", "/waves/start", { wave_id: wave.wave_id })
        yield* created("POST", "/webhooks", { event_type: "order_shipped", url: "https://example.com/hook" })
        const webhooks = yield* call("GET", "/webhooks")
        const paths = [
          ...lists,
          "/pickmethods",
          "/orders?lines=false",
          "/orders/TO-1/lines",
          "/preadvices/TP-1/lines",
          "/locations",
          "/locations?zone=A",
          "/movement-tasks",
          "/counts",
          "/pick-faces",
          "/tasks?sku_id=T-2",
          `/waves/${wave.wave_id}/orders`,
          `/waves/${wave.wave_id}/claimsets`,
          `/waves/${wave.wave_id}/claims`,
          `/waves/${wave.wave_id}/tasks`,
          `/webhooks/${webhooks.body.at(-1).id}/deliveries`
        ]
        for (const path of paths) {
          const whole = yield* call("GET", path)
          assert.deepStrictEqual([path, whole.status, whole.headers["x-total-count"]], [path, 200, undefined])
          for (const { limit, offset } of windows) {
            const query = `${path}${path.includes("?") ? "&" : "?"}limit=${limit}&offset=${offset}`
            const part = yield* call("GET", query)
            assert.deepStrictEqual(
              [query, part.status, part.headers["x-total-count"], part.body],
              [query, 200, String(whole.body.length), whole.body.slice(offset, offset + limit)]
            )
          }
          // An offset alone shows the rest of the list, uncounted.
          const rest = yield* call("GET", `${path}${path.includes("?") ? "&" : "?"}offset=1`)
          assert.deepStrictEqual([path, rest.headers["x-total-count"]], [path, undefined])
        }
        // The filters count, not the window: three of the five locations are in zone A.
        const zoneA = yield* call("GET", "/locations?zone=A&limit=1&offset=1")
        assert.deepStrictEqual([zoneA.headers["x-total-count"], zoneA.body.map((l: any) => l.loc_id)], ["3", ["TA-2"]])
        const orders = yield* call("GET", "/orders?limit=2&offset=1")
        assert.deepStrictEqual(
          [orders.headers["x-total-count"], orders.body.map((o: any) => o.order_id)],
          ["4", ["TO-2", "TO-3"]]
        )
      }))
  })
}
