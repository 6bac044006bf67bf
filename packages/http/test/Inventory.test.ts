import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { insertSku } from "../../../testing/fixtures.js"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"
import { callerFor, checkProperty, unique } from "../../../testing/world.js"

const dateTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

// Adjustments by key of one SKU: two locations, two expiries, with or without a tag.
const adjustmentsByKey = fc.array(
  fc.record({
    loc_id: fc.constantFrom("A-1", "B-1"),
    tag_id: fc.constantFrom(null, "T-1"),
    expiry_date: fc.constantFrom(null, "2099-01-01"),
    qty: fc.integer({ min: -6, max: 6 }).filter((n) => n !== 0)
  }),
  { minLength: 1, maxLength: 12 }
)

/** A content as the model keeps it: `tag_id` null for a generated tag. */
interface ModelContent {
  readonly loc_id: string
  readonly tag_id: string | null
  readonly expiry_date: string | null
  qty: number
}

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`inventory on ${label}`, (it) => {
    it.effect("a positive adjustment creates a content, a ledger entry and an overview record", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        yield* insertSku({ sku_id: "ADJ-1", description: "Bolts" })
        const created = yield* api.request("POST", "/inventory/adjustments", {
          token,
          site: "main",
          body: { sku_id: "ADJ-1", loc_id: "A-01", tag_id: "TAG-1", qty: 10, notes: "count" }
        })
        assert.strictEqual(created.status, 204)
        const overview = yield* api.request("GET", "/inventory/overview", { token, site: "main" })
        const content = overview.body.find((c: { sku_id: string }) => c.sku_id === "ADJ-1")
        assert.deepStrictEqual(Object.keys(content).sort(), [
          "client_id",
          "content_id",
          "created_datetime",
          "description",
          "expiry_date",
          "held",
          "holds",
          "loc_id",
          "qty",
          "qty_allocated",
          "qty_tasked_from",
          "sku_id",
          "tag_id"
        ])
        assert.deepStrictEqual({ ...content, content_id: 0, created_datetime: "" }, {
          content_id: 0,
          sku_id: "ADJ-1",
          description: "Bolts",
          loc_id: "A-01",
          qty: 10,
          qty_allocated: 0,
          qty_tasked_from: 0,
          tag_id: "TAG-1",
          expiry_date: null,
          client_id: null,
          created_datetime: "",
          held: false,
          holds: []
        })
        assert.match(content.created_datetime, dateTime)
        const one = yield* api.request("GET", `/inventory/overview/${content.content_id}`, { token, site: "main" })
        assert.deepStrictEqual(one.body, content)

        const more = yield* api.request("POST", "/inventory/adjustments", {
          token,
          site: "main",
          body: { content_id: content.content_id, qty: -4 }
        })
        assert.strictEqual(more.status, 204)
        const after = yield* api.request("GET", `/inventory/overview/${content.content_id}`, { token, site: "main" })
        assert.strictEqual(after.body.qty, 6)

        const ledger = yield* api.request("GET", "/inventory/transactions", { token, site: "main" })
        const entries = ledger.body.filter((t: { content_id: number }) => t.content_id === content.content_id)
        assert.deepStrictEqual(
          entries.map((t: { transaction_type: string; qty: number }) => [t.transaction_type, t.qty]),
          [
            ["Adjustment", 10],
            ["Adjustment", -4]
          ]
        )
        assert.deepStrictEqual({ ...entries[0], id: 0, dstamp: "" }, {
          id: 0,
          dstamp: "",
          transaction_type: "Adjustment",
          content_id: content.content_id,
          from_loc_id: "A-01",
          to_loc_id: "A-01",
          final_loc_id: "A-01",
          sku_id: "ADJ-1",
          qty: 10,
          tag_id: "TAG-1",
          order_id: null,
          line_id: null,
          notes: "count",
          client_id: null,
          from_content_id: null,
          reason_code: null
        })
        const entry = yield* api.request("GET", `/inventory/transactions/${entries[0].id}`, { token, site: "main" })
        assert.deepStrictEqual(entry.body, entries[0])
      }))

    it.effect("an adjustment by key adds to the content at that key; without a tag a new tag is generated", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        yield* insertSku({ sku_id: "ADJ-2", expiry_days: 30 })
        const body = { sku_id: "ADJ-2", loc_id: "B-01", tag_id: "T-2", expiry_date: "2030-01-31", qty: 3 }
        assert.strictEqual(
          (yield* api.request("POST", "/inventory/adjustments", { token, site: "main", body })).status,
          204
        )
        assert.strictEqual(
          (yield* api.request("POST", "/inventory/adjustments", { token, site: "main", body })).status,
          204
        )
        yield* api.request("POST", "/inventory/adjustments", {
          token,
          site: "main",
          body: { sku_id: "ADJ-2", loc_id: "B-01", qty: 1 }
        })
        const overview = yield* api.request("GET", "/inventory/overview", { token, site: "main" })
        const contents = overview.body.filter((c: { sku_id: string }) => c.sku_id === "ADJ-2")
        assert.strictEqual(contents.length, 2)
        assert.deepStrictEqual([contents[0].tag_id, contents[0].qty, contents[0].expiry_date], ["T-2", 6, "2030-01-31"])
        assert.match(contents[1].tag_id, /^T\d{8}$/)
        // An expiry SKU without an expiry date gets today + expiry_days.
        const expected = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
        assert.strictEqual(contents[1].expiry_date, expected)
      }))

    it.effect("any adjustments by key: tagged to their tag's content, untagged to the oldest at the location", () =>
      Effect.gen(function*() {
        const main = yield* callerFor(yield* (yield* Api).login(), "main")
        yield* checkProperty(adjustmentsByKey, (adjustments) =>
          Effect.gen(function*() {
            const sku = yield* insertSku({ sku_id: unique("KEYED") })
            const model: Array<ModelContent> = []
            for (const { expiry_date, loc_id, qty, tag_id } of adjustments) {
              const body = {
                sku_id: sku,
                loc_id,
                qty,
                ...(tag_id === null ? {} : { tag_id }),
                ...(expiry_date === null ? {} : { expiry_date })
              }
              const response = yield* main.post("/inventory/adjustments", body)
              const found = model.find((c) =>
                c.loc_id === loc_id && c.expiry_date === expiry_date && (tag_id === null || c.tag_id === tag_id)
              )
              const expected = found === undefined ? (qty < 0 ? 400 : 204) : found.qty + qty < 0 ? 409 : 204
              assert.strictEqual(response.status, expected, `${JSON.stringify(body)}: ${JSON.stringify(response.body)}`)
              if (expected !== 204) continue
              if (found === undefined) model.push({ loc_id, tag_id, expiry_date, qty })
              else found.qty += qty
            }
            const overview = yield* main.get("/inventory/overview")
            const shown = overview.body
              .filter((c: { sku_id: string }) => c.sku_id === sku)
              .sort((a: { content_id: number }, b: { content_id: number }) => a.content_id - b.content_id)
              .map((c: ModelContent) => [c.loc_id, /^T\d{8}$/.test(c.tag_id!) ? null : c.tag_id, c.expiry_date, c.qty])
            const expected = model.filter((c) => c.qty > 0).map((c) => [c.loc_id, c.tag_id, c.expiry_date, c.qty])
            assert.deepStrictEqual(shown, expected)
          }), 25)
      }))

    it.effect("stock never goes below zero: 409 naming the content", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        yield* insertSku({ sku_id: "ADJ-3" })
        yield* api.request("POST", "/inventory/adjustments", {
          token,
          site: "main",
          body: { sku_id: "ADJ-3", loc_id: "C-01", tag_id: "T-3", qty: 2 }
        })
        const overview = yield* api.request("GET", "/inventory/overview", { token, site: "main" })
        const content = overview.body.find((c: { sku_id: string }) => c.sku_id === "ADJ-3")
        const response = yield* api.request("POST", "/inventory/adjustments", {
          token,
          site: "main",
          body: { content_id: content.content_id, qty: -3 }
        })
        assert.strictEqual(response.status, 409)
        assert.include(response.body.message, `Content ${content.content_id}`)
        const after = yield* api.request("GET", `/inventory/overview/${content.content_id}`, { token, site: "main" })
        assert.strictEqual(after.body.qty, 2)
      }))

    it.effect("bad adjustments get 400 naming the field, missing records 404", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const cases: ReadonlyArray<[unknown, number, string]> = [
          [{ content_id: 1 }, 400, "Missing field qty"],
          [{ content_id: 1, qty: 0 }, 400, "Invalid field qty: must be a non-zero integer"],
          [{ content_id: 1, qty: 1.5 }, 400, "Invalid field qty: must be a non-zero integer"],
          [{ qty: 1 }, 400, "Invalid field sku_id: is required when content_id is absent"],
          [{ sku_id: "NOPE", loc_id: "A", qty: 1 }, 400, "Invalid field sku_id: SKU NOPE does not exist"],
          [
            { sku_id: "ADJ-1", loc_id: "A", qty: 1, expiry_date: "2030-02-30" },
            400,
            "Invalid field expiry_date: must be a date YYYY-MM-DD"
          ],
          [{ content_id: 999999, qty: 1 }, 404, "Inventory content with contentId 999999 not found"]
        ]
        for (const [body, status, message] of cases) {
          const response = yield* api.request("POST", "/inventory/adjustments", { token, site: "main", body })
          assert.deepStrictEqual([response.status, response.body], [status, { message }], JSON.stringify(body))
        }
      }))

    it.effect("reads by id: 404 with the documented message, 400 for a non-integer id", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const missing = yield* api.request("GET", "/inventory/transactions/999999", { token, site: "main" })
        assert.deepStrictEqual([missing.status, missing.body], [404, {
          message: "Inventory transaction with transactionId 999999 not found"
        }])
        const content = yield* api.request("GET", "/inventory/overview/999999", { token, site: "main" })
        assert.strictEqual(content.status, 404)
        const lost = yield* api.request("GET", "/inventory/lostandfound/999999", { token, site: "main" })
        assert.deepStrictEqual([lost.status, lost.body], [404, {
          message: "Lost and found item with id 999999 not found"
        }])
        const list = yield* api.request("GET", "/inventory/lostandfound", { token, site: "main" })
        assert.deepStrictEqual([list.status, list.body], [200, []])
        const bad = yield* api.request("GET", "/inventory/transactions/1.5", { token, site: "main" })
        assert.strictEqual(bad.status, 400)
        assert.match(bad.body.message, /^Invalid field id/)
      }))

    it.effect("a client scope sees only that client's stock", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        yield* api.request("POST", "/sites", {
          token,
          site: "main",
          body: { site_id: "ful", name: "F", fulfillment: true }
        })
        for (const client_id of ["inv-c1", "inv-c2"]) {
          yield* api.request("POST", "/clients", { token, site: "ful", body: { client_id, name: client_id } })
          yield* insertSku({ site_id: "ful", client_id, sku_id: `SKU-${client_id}` })
          const adjusted = yield* api.request("POST", "/inventory/adjustments", {
            token,
            site: client_id,
            body: { sku_id: `SKU-${client_id}`, loc_id: "A", qty: 5 }
          })
          assert.strictEqual(adjusted.status, 204)
        }
        const c1 = yield* api.request("GET", "/inventory/overview", { token, site: "inv-c1" })
        assert.deepStrictEqual(c1.body.map((c: { client_id: string }) => c.client_id), ["inv-c1"])
        const site = yield* api.request("GET", "/inventory/overview", { token, site: "ful" })
        assert.deepStrictEqual(site.body.map((c: { client_id: string }) => c.client_id).sort(), ["inv-c1", "inv-c2"])
        const other = site.body.find((c: { client_id: string }) => c.client_id === "inv-c2")
        const hidden = yield* api.request("GET", `/inventory/overview/${other.content_id}`, { token, site: "inv-c1" })
        assert.strictEqual(hidden.status, 404)
        const sku = yield* api.request("POST", "/inventory/adjustments", {
          token,
          site: "inv-c1",
          body: { sku_id: "SKU-inv-c2", loc_id: "A", qty: 5 }
        })
        assert.deepStrictEqual(sku.body, { message: "Invalid field sku_id: SKU SKU-inv-c2 does not exist" })
        const ledger = yield* api.request("GET", "/inventory/transactions", { token, site: "inv-c1" })
        assert.isTrue(ledger.body.every((t: { client_id: string }) => t.client_id === "inv-c1"))
      }))
  })
}
