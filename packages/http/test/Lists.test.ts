import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnBothStores } from "../../../testing/server.js"

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

for (const [label, server] of serverOnBothStores) {
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
          const bad = yield* api.request("GET", `${path}?limit=ten`, { token, site: "main" })
          assert.deepStrictEqual([path, bad.status, bad.body], [path, 400, {
            message: "Invalid field limit: must be a whole number"
          }])
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
  })
}
