import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"

// Every create with a record to read, its body, and the path its `Location` must name where the id is the client's.
const creates: ReadonlyArray<{ readonly path: string; readonly body: unknown; readonly location?: string }> = [
  { path: "/customers", body: { name: "Jansen Foods" } },
  { path: "/suppliers", body: { name: "Bakker Bulk" } },
  { path: "/carriers", body: { name: "PostNL" } },
  { path: "/skus", body: { sku_id: "BOLT 8/M", description: "Bolt" }, location: "/skus/BOLT%208%2FM" },
  { path: "/skugroups", body: { description: "Fasteners" } },
  {
    path: "/orders",
    body: { order_id: "SO-LOC", lines: [{ sku_id: "BOLT 8/M", qty: 2 }] },
    location: "/orders/SO-LOC"
  },
  { path: "/preadvices", body: { pre_advice_id: "PA-LOC" }, location: "/preadvices/PA-LOC" },
  { path: "/wave-definitions", body: { description: "Alles per order", criterium_id: 5, pick_type: 1 } },
  { path: "/webhooks", body: { event_type: "order_shipped", url: "https://example.com/hook", enabled: false } }
]

// The creates that answer 201 with the record, in order (the movement task moves the stock the adjustment made).
const recordCreates: ReadonlyArray<{ readonly path: string; readonly body: unknown; readonly location: RegExp }> = [
  { path: "/locations", body: { loc_id: "BAY 1/2", loc_type: "Storage" }, location: /^\/locations\/BAY%201%2F2$/ },
  {
    path: "/movement-tasks",
    body: { content_id: 1, qty: 1, to_loc_id: "BAY 1/2" },
    location: /^\/movement-tasks\/\d+$/
  }
]

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`created records' locations on ${label}`, (it) => {
    it.effect("each create answers 204 with a Location that GET reads as the record just made", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        for (const create of creates) {
          const created = yield* api.request("POST", create.path, { token, site: "main", body: create.body })
          assert.deepStrictEqual([create.path, created.status, created.body], [create.path, 204, undefined])
          const location = created.headers["location"]!
          if (create.location !== undefined) assert.strictEqual(location, create.location)
          else assert.match(location, new RegExp(`^${create.path}/\\d+$`))
          const read = yield* api.request("GET", location, { token, site: "main" })
          assert.strictEqual(read.status, 200, location)
          for (const [field, value] of Object.entries(create.body as Record<string, unknown>)) {
            if (field !== "lines") assert.deepStrictEqual([field, read.body[field]], [field, value])
          }
        }
      }))

    it.effect("each create that answers 201 with the record names it in its Location, which GET reads", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const stock = { sku_id: "BOLT 8/M", loc_id: "A-1", qty: 5 }
        assert.strictEqual(
          (yield* api.request("POST", "/inventory/adjustments", { token, site: "main", body: stock })).status,
          204
        )
        for (const create of recordCreates) {
          const created = yield* api.request("POST", create.path, { token, site: "main", body: create.body })
          assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          assert.match(created.headers["location"]!, create.location)
          const read = yield* api.request("GET", created.headers["location"]!, { token, site: "main" })
          assert.deepStrictEqual([read.status, read.body], [200, created.body])
        }
      }))

    it.effect("the OpenAPI document names the Location header of every such create's 204 or 201", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const spec = (yield* api.request("GET", "/openapi.json")).body
        for (const create of creates) {
          assert.strictEqual(spec.paths[create.path].post.responses["204"].headers.Location.schema.type, "string")
        }
        for (const create of recordCreates) {
          assert.strictEqual(spec.paths[create.path].post.responses["201"].headers.Location.schema.type, "string")
        }
      }))
  })
}
