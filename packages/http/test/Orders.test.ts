import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { insertSku } from "../../../testing/fixtures.js"
import { Api } from "../../../testing/server.js"
import { unique } from "../../../testing/world.js"
import { OrdersWorld, serverWithWorld, type World } from "./OrdersWorld.js"

const released = { id: 14, description: "Released" }

const line = (orderId: string, n: number, sku_id: string, qty: number) => ({
  order_id: orderId,
  line: n,
  sku_id,
  qty,
  qty_picked: 0,
  qty_shipped: 0
})

/** Requests as the user of site P, unless another token and site are given. */
const client = (
  w: World,
  as: { readonly token: string; readonly site: string } = { token: w.userP.token, site: w.p }
) =>
  Effect.map(Api, (api) => ({
    get: (path: string) => api.request("GET", path, as),
    post: (path: string, body: unknown) => api.request("POST", path, { ...as, body }),
    put: (path: string, body: unknown) => api.request("PUT", path, { ...as, body }),
    del: (path: string) => api.request("DELETE", path, as)
  }))

const expectStatus = (response: { status: number; body: unknown }, status: number, body?: unknown) => {
  assert.deepStrictEqual(
    body === undefined ? [response.status] : [response.status, response.body],
    body === undefined ? [status] : [status, body],
    JSON.stringify(response.body)
  )
}

for (const [label, server] of serverWithWorld) {
  layer(server, { timeout: 60_000, excludeTestServices: true })(`orders on ${label}`, (it) => {
    it.effect("POST /orders creates a Released order that GET /orders/:id shows exactly as §2.2", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        const before = Date.now()
        const created = yield* c.post("/orders", {
          order_id: id,
          customer_id: w.p_customer,
          order_date: "2026-03-01",
          ship_by_date: "2026-03-05",
          carrier_id: w.p_carrier,
          ship_dock: "DOCK-1",
          lines: [{ sku_id: "SKU-1", qty: 3 }, { sku_id: "SKU-2", qty: 1, line: 5 }, { sku_id: "SKU-3", qty: 2 }]
        })
        expectStatus(created, 204)
        assert.isUndefined(created.body)
        const got = yield* c.get(`/orders/${id}`)
        expectStatus(got, 200)
        const { creation_datetime, ...rest } = got.body
        assert.deepStrictEqual(rest, {
          order_id: id,
          client_id: null,
          order_date: "2026-03-01",
          order_status: released,
          order_status_description: "Released",
          customer: { id: w.p_customer, name: "Acme, Utrecht" },
          ship_by_date: "2026-03-05",
          carrier: "PostNL",
          ship_dock: "DOCK-1",
          created_by: w.userP.userId,
          order_type: "Customer",
          to_site: null,
          lines: [line(id, 5, "SKU-2", 1), line(id, 6, "SKU-1", 3), line(id, 7, "SKU-3", 2)],
          shipping_units: []
        })
        assert.deepStrictEqual(Object.keys(got.body), [
          "order_id",
          "client_id",
          "order_date",
          "order_status",
          "order_status_description",
          "customer",
          "ship_by_date",
          "carrier",
          "ship_dock",
          "creation_datetime",
          "created_by",
          "order_type",
          "to_site",
          "lines",
          "shipping_units"
        ])
        assert.match(creation_datetime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
        const shown = Date.parse(`${creation_datetime.replace(" ", "T")}Z`)
        assert.isTrue(shown >= Math.floor(before / 1000) * 1000 && shown <= Date.now(), creation_datetime)
      }))

    it.effect("absent optional values are null; a customer without a town is named alone", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const bare = unique("O")
        expectStatus(yield* c.post("/orders", { order_id: bare }), 204)
        const got = (yield* c.get(`/orders/${bare}`)).body
        assert.deepStrictEqual(
          [got.order_date, got.customer, got.ship_by_date, got.carrier, got.ship_dock, got.lines],
          [null, null, null, null, null, []]
        )
        const nulls = unique("O")
        expectStatus(
          yield* c.post("/orders", {
            order_id: nulls,
            customer_id: w.p_customerNoTown,
            order_date: null,
            carrier_id: null,
            ship_dock: "",
            lines: null
          }),
          204
        )
        const other = (yield* c.get(`/orders/${nulls}`)).body
        assert.deepStrictEqual([other.customer, other.ship_dock, other.lines], [
          { id: w.p_customerNoTown, name: "Solo" },
          null,
          []
        ])
      }))

    it.effect("read-only and unknown fields of a write body are ignored", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(
          yield* c.post("/orders", {
            order_id: id,
            client_id: w.f1,
            order_status: { id: 19, description: "Shipped" },
            status_id: 19,
            created_by: "someone else",
            creation_datetime: "2000-01-01 00:00:00",
            surprise: { nested: [1, 2] },
            lines: [{ sku_id: "SKU-1", qty: 2, qty_picked: 2, qty_shipped: 2, order_id: "other" }]
          }),
          204
        )
        expectStatus(
          yield* c.put(`/orders/${id}`, { order_id: "renamed", created_by: "x", client_id: w.f1, lines: [] }),
          204
        )
        const got = (yield* c.get(`/orders/${id}`)).body
        assert.deepStrictEqual(
          [got.order_id, got.client_id, got.order_status, got.created_by, got.lines],
          [id, null, released, w.userP.userId, [line(id, 1, "SKU-1", 2)]]
        )
        assert.notStrictEqual(got.creation_datetime, "2000-01-01 00:00:00")
      }))

    it.effect("POST /orders with an order_id in use on the site gets 409 and changes nothing", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(yield* c.post("/orders", { order_id: id, ship_dock: "A" }), 204)
        const again = yield* c.post("/orders", { order_id: id, ship_dock: "B", lines: [{ sku_id: "SKU-1", qty: 1 }] })
        expectStatus(again, 409, { message: `Order with OrderID ${id} already exists` })
        const got = (yield* c.get(`/orders/${id}`)).body
        assert.deepStrictEqual([got.ship_dock, got.lines], ["A", []])
      }))

    it.effect("GET /orders/:id of a missing order gets 404 with the documented message", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        expectStatus(yield* c.get("/orders/nope"), 404, { message: "Order with OrderID nope not found" })
        expectStatus(yield* c.get("/orders/with%20space"), 404, { message: "Order with OrderID with space not found" })
      }))

    it.effect("an order id with spaces and accents is found through its encoded path", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = `${unique("Bestelling")} één`
        expectStatus(yield* c.post("/orders", { order_id: id }), 204)
        const got = yield* c.get(`/orders/${encodeURIComponent(id)}`)
        assert.deepStrictEqual([got.status, got.body.order_id], [200, id])
      }))

    it.effect("GET /orders lists the scope's orders with lines; lines=false leaves the key out", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const first = unique("O")
        const second = unique("O")
        expectStatus(yield* c.post("/orders", { order_id: first, lines: [{ sku_id: "SKU-1", qty: 1 }] }), 204)
        expectStatus(yield* c.post("/orders", { order_id: second, customer_id: w.p_customer }), 204)
        const mine = (orders: ReadonlyArray<{ order_id: string }>) =>
          orders.filter((o) => [first, second].includes(o.order_id))
        const all = yield* c.get("/orders")
        expectStatus(all, 200)
        const listed = mine(all.body)
        assert.deepStrictEqual(listed.map((o) => o.order_id), [first, second])
        // A list item is the order's record but for its shipping units, which only the single record shows.
        const record = (orderId: string) =>
          Effect.map(c.get(`/orders/${orderId}`), ({ body: { shipping_units, ...rest } }) => {
            assert.deepStrictEqual(shipping_units, [])
            return rest
          })
        assert.deepStrictEqual(listed[0], yield* record(first))
        assert.deepStrictEqual(listed[1], yield* record(second))
        assert.deepStrictEqual((listed[0] as unknown as { lines: unknown }).lines, [line(first, 1, "SKU-1", 1)])
        assert.deepStrictEqual((listed[1] as unknown as { lines: unknown }).lines, [])
        for (const order of all.body) assert.strictEqual(order.client_id, null)
        const withLines = yield* c.get("/orders?lines=true")
        assert.deepStrictEqual(mine(withLines.body), listed)
        const without = yield* c.get("/orders?lines=false")
        expectStatus(without, 200)
        assert.strictEqual(without.body.length, all.body.length)
        for (const order of without.body) assert.isFalse("lines" in order)
        assert.deepStrictEqual(
          mine(without.body),
          listed.map(({ lines: _, ...header }: { order_id: string; lines?: unknown }) => header)
        )
      }))

    it.effect("PUT /orders/:id changes only the fields present; null clears a field", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(
          yield* c.post("/orders", {
            order_id: id,
            customer_id: w.p_customer,
            order_date: "2026-01-01",
            ship_by_date: "2026-01-02",
            carrier_id: w.p_carrier,
            ship_dock: "D1",
            lines: [{ sku_id: "SKU-1", qty: 1 }]
          }),
          204
        )
        const original = (yield* c.get(`/orders/${id}`)).body
        expectStatus(yield* c.put(`/orders/${id}`, {}), 204)
        assert.deepStrictEqual((yield* c.get(`/orders/${id}`)).body, original)
        expectStatus(
          yield* c.put(`/orders/${id}`, { ship_by_date: "2026-02-02", customer_id: w.p_customerNoTown }),
          204
        )
        assert.deepStrictEqual((yield* c.get(`/orders/${id}`)).body, {
          ...original,
          ship_by_date: "2026-02-02",
          customer: { id: w.p_customerNoTown, name: "Solo" }
        })
        expectStatus(
          yield* c.put(`/orders/${id}`, {
            customer_id: null,
            order_date: null,
            ship_by_date: null,
            carrier_id: null,
            ship_dock: null
          }),
          204
        )
        assert.deepStrictEqual((yield* c.get(`/orders/${id}`)).body, {
          ...original,
          customer: null,
          order_date: null,
          ship_by_date: null,
          carrier: null,
          ship_dock: null
        })
        expectStatus(yield* c.put(`/orders/${id}`, { carrier_id: w.p_carrier, ship_dock: "D2" }), 204)
        const last = (yield* c.get(`/orders/${id}`)).body
        assert.deepStrictEqual([last.carrier, last.ship_dock, last.customer], ["PostNL", "D2", null])
      }))

    it.effect("POST /orders names the first missing reference: customer, carrier, then a line's SKU, also past 500 SKUs", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const prefix = unique("REF")
        const skuIds = Array.from({ length: 600 }, (_, i) => `${prefix}-${i}`)
        for (const sku_id of skuIds) yield* insertSku({ site_id: w.p, sku_id })
        const lines = skuIds.map((sku_id) => ({ sku_id, qty: 1 }))
        const missingLine = [...lines, { sku_id: `${prefix}-NOPE`, qty: 1 }]
        const id = unique("O")
        expectStatus(
          yield* c.post("/orders", { order_id: id, customer_id: 999999, carrier_id: 999999, lines: missingLine }),
          400,
          { message: "Invalid field customer_id: customer 999999 does not exist" }
        )
        expectStatus(
          yield* c.post("/orders", { order_id: id, customer_id: w.p_customer, carrier_id: 999999, lines: missingLine }),
          400,
          { message: "Invalid field carrier_id: carrier 999999 does not exist" }
        )
        expectStatus(
          yield* c.post("/orders", {
            order_id: id,
            customer_id: w.p_customer,
            carrier_id: w.p_carrier,
            lines: missingLine
          }),
          400,
          { message: `Invalid field lines.600.sku_id: sku ${prefix}-NOPE does not exist` }
        )
        expectStatus(
          yield* c.post("/orders", { order_id: id, customer_id: w.p_customer, carrier_id: w.p_carrier, lines }),
          204
        )
        assert.strictEqual((yield* c.get(`/orders/${id}`)).body.lines.length, 600)
      }))

    it.effect("PUT /orders/:id of a missing order gets 404; a bad field gets 400 and changes nothing", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        expectStatus(yield* c.put("/orders/nope", { ship_dock: "X" }), 404, {
          message: "Order with OrderID nope not found"
        })
        const id = unique("O")
        expectStatus(yield* c.post("/orders", { order_id: id, ship_dock: "D" }), 204)
        expectStatus(yield* c.put(`/orders/${id}`, { ship_dock: "E", customer_id: 999999 }), 400, {
          message: "Invalid field customer_id: customer 999999 does not exist"
        })
        expectStatus(yield* c.put(`/orders/${id}`, { ship_dock: "E", carrier_id: 999999 }), 400, {
          message: "Invalid field carrier_id: carrier 999999 does not exist"
        })
        expectStatus(yield* c.put(`/orders/${id}`, { ship_dock: "E", order_date: "2026-02-30" }), 400, {
          message: "Invalid field order_date: must be a date YYYY-MM-DD"
        })
        expectStatus(yield* c.put(`/orders/${id}`, { ship_dock: 5 }), 400)
        assert.strictEqual((yield* c.get(`/orders/${id}`)).body.ship_dock, "D")
      }))

    it.effect("DELETE /orders/:id removes the order and its lines; a missing one is 404", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(yield* c.post("/orders", { order_id: id, lines: [{ sku_id: "SKU-1", qty: 1 }] }), 204)
        const deleted = yield* c.del(`/orders/${id}`)
        expectStatus(deleted, 204)
        assert.isUndefined(deleted.body)
        expectStatus(yield* c.get(`/orders/${id}`), 404, { message: `Order with OrderID ${id} not found` })
        expectStatus(yield* c.get(`/orders/${id}/lines`), 404)
        expectStatus(yield* c.del(`/orders/${id}`), 404, { message: `Order with OrderID ${id} not found` })
        // The id is free again, and the new order starts without the old lines.
        expectStatus(yield* c.post("/orders", { order_id: id }), 204)
        assert.deepStrictEqual((yield* c.get(`/orders/${id}`)).body.lines, [])
      }))

    it.effect("GET /orders/:id/lines and /lines/:line_id return line records; a missing line is 404", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(
          yield* c.post("/orders", {
            order_id: id,
            lines: [{ sku_id: "SKU-2", qty: 4, line: 3 }, { sku_id: "SKU-1", qty: 1, line: 1 }]
          }),
          204
        )
        const lines = yield* c.get(`/orders/${id}/lines`)
        expectStatus(lines, 200, [line(id, 1, "SKU-1", 1), line(id, 3, "SKU-2", 4)])
        expectStatus(yield* c.get(`/orders/${id}/lines/3`), 200, line(id, 3, "SKU-2", 4))
        expectStatus(yield* c.get(`/orders/${id}/lines/2`), 404, { message: `Line 2 of order ${id} not found` })
        expectStatus(yield* c.get(`/orders/${id}/lines/abc`), 400, {
          message: "Invalid field line_id: must be an integer id"
        })
        expectStatus(yield* c.get(`/orders/${id}/lines/1.5`), 400)
        expectStatus(yield* c.get("/orders/nope/lines"), 404, { message: "Order with OrderID nope not found" })
        expectStatus(yield* c.get("/orders/nope/lines/1"), 404, { message: "Order with OrderID nope not found" })
      }))

    it.effect("POST /orders/:id/lines adds one line or an array, numbering omitted lines max + 1", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(yield* c.post("/orders", { order_id: id, lines: [{ sku_id: "SKU-1", qty: 1, line: 2 }] }), 204)
        const added = yield* c.post(`/orders/${id}/lines`, { sku_id: "SKU-2", qty: 5 })
        expectStatus(added, 204)
        assert.isUndefined(added.body)
        expectStatus(
          yield* c.post(`/orders/${id}/lines`, [{ sku_id: "SKU-3", qty: 1 }, { sku_id: "SKU-1", qty: 2, line: 10 }, {
            sku_id: "SKU-2",
            qty: 3
          }, { sku_id: "SKU-1", qty: 4, line: 1 }]),
          204
        )
        expectStatus(yield* c.post(`/orders/${id}/lines`, []), 204)
        expectStatus(yield* c.get(`/orders/${id}/lines`), 200, [
          line(id, 1, "SKU-1", 4),
          line(id, 2, "SKU-1", 1),
          line(id, 3, "SKU-2", 5),
          line(id, 10, "SKU-1", 2),
          line(id, 11, "SKU-3", 1),
          line(id, 12, "SKU-2", 3)
        ])
      }))

    it.effect("line numbers stop at 2147483647: a line above it is 400, none left to generate is 409", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(
          yield* c.post("/orders", { order_id: id, lines: [{ sku_id: "SKU-1", qty: 1, line: 2147483647 }] }),
          204
        )
        expectStatus(yield* c.post(`/orders/${id}/lines`, { sku_id: "SKU-1", qty: 1, line: 2147483648 }), 400, {
          message: "Invalid field line: must be an integer from 1 to 2147483647"
        })
        expectStatus(yield* c.post(`/orders/${id}/lines`, { sku_id: "SKU-1", qty: 1 }), 409, {
          message: `Order with OrderID ${id} has no line number left`
        })
        expectStatus(yield* c.get(`/orders/${id}/lines/2147483647`), 200, line(id, 2147483647, "SKU-1", 1))
      }))

    it.effect("PUT /orders/:id/lines/:line_id sets sku_id and qty; a missing line is 404", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(
          yield* c.post("/orders", { order_id: id, lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-2", qty: 2 }] }),
          204
        )
        const updated = yield* c.put(`/orders/${id}/lines/2`, { sku_id: "SKU-3", qty: 9, line: 5, qty_picked: 3 })
        expectStatus(updated, 204)
        expectStatus(yield* c.get(`/orders/${id}/lines`), 200, [line(id, 1, "SKU-1", 1), line(id, 2, "SKU-3", 9)])
        expectStatus(yield* c.put(`/orders/${id}/lines/3`, { sku_id: "SKU-3", qty: 1 }), 404, {
          message: `Line 3 of order ${id} not found`
        })
        expectStatus(yield* c.put(`/orders/${id}/lines/1`, { qty: 1 }), 400, { message: "Missing field sku_id" })
        expectStatus(yield* c.put(`/orders/${id}/lines/1`, { sku_id: "SKU-2", qty: 0 }), 400, {
          message: "Invalid field qty: must be an integer of at least 1"
        })
        expectStatus(yield* c.put(`/orders/${id}/lines/1`, { sku_id: "NOPE", qty: 1 }), 400, {
          message: "Invalid field sku_id: sku NOPE does not exist"
        })
        expectStatus(yield* c.put("/orders/nope/lines/1", { sku_id: "SKU-1", qty: 1 }), 404, {
          message: "Order with OrderID nope not found"
        })
        expectStatus(yield* c.get(`/orders/${id}/lines/1`), 200, line(id, 1, "SKU-1", 1))
      }))

    it.effect("DELETE /orders/:id/lines/:line_id removes the line; a missing line is 404", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(
          yield* c.post("/orders", { order_id: id, lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-2", qty: 2 }] }),
          204
        )
        const deleted = yield* c.del(`/orders/${id}/lines/2`)
        expectStatus(deleted, 204)
        assert.isUndefined(deleted.body)
        expectStatus(yield* c.del(`/orders/${id}/lines/2`), 404, { message: `Line 2 of order ${id} not found` })
        expectStatus(yield* c.get(`/orders/${id}/lines`), 200, [line(id, 1, "SKU-1", 1)])
        // The highest number in use decides the next one: a deleted top line's number comes back.
        expectStatus(yield* c.post(`/orders/${id}/lines`, { sku_id: "SKU-3", qty: 1 }), 204)
        expectStatus(yield* c.get(`/orders/${id}/lines/2`), 200, line(id, 2, "SKU-3", 1))
        expectStatus(yield* c.del("/orders/nope/lines/1"), 404, { message: "Order with OrderID nope not found" })
      }))

    it.effect("write bodies are validated field by field with 400 naming the field", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{}, "Missing field order_id"],
          [{ order_id: "" }, "Invalid field order_id: must not be empty"],
          [{ order_id: "   " }, "Invalid field order_id: must not be empty"],
          [{ order_id: "x".repeat(101) }, "Invalid field order_id: must be at most 100 characters"],
          [{ order_id: "a\u0000b" }, "Invalid field order_id: must not contain NUL characters"],
          [{ order_id: 12 }, "Invalid field order_id: Expected string, actual 12"],
          [{ order_id: "o", order_date: "01-03-2026" }, "Invalid field order_date: must be a date YYYY-MM-DD"],
          [{ order_id: "o", ship_by_date: "2026-13-01" }, "Invalid field ship_by_date: must be a date YYYY-MM-DD"],
          [{ order_id: "o", customer_id: "1" }, "Invalid field customer_id: Expected number, actual \"1\""],
          [{ order_id: "o", customer_id: 1.5 }, "Invalid field customer_id: must be an integer id"],
          [{ order_id: "o", carrier_id: 1e20 }, "Invalid field carrier_id: must be an integer id"],
          [{ order_id: "o", lines: {} }, "Invalid field lines: must be an array of order lines"],
          [{ order_id: "o", lines: [{ qty: 1 }] }, "Missing field lines.0.sku_id"],
          [{ order_id: "o", lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-1" }] }, "Missing field lines.1.qty"],
          [
            { order_id: "o", lines: [{ sku_id: "SKU-1", qty: 0 }] },
            "Invalid field lines.0.qty: must be an integer of at least 1"
          ],
          [
            { order_id: "o", lines: [{ sku_id: "SKU-1", qty: 2.5 }] },
            "Invalid field lines.0.qty: must be an integer of at least 1"
          ],
          [
            { order_id: "o", lines: [{ sku_id: "SKU-1", qty: 3e9 }] },
            "Invalid field lines.0.qty: must be at most 2147483647"
          ],
          [
            { order_id: "o", lines: [{ sku_id: "SKU-1", qty: 1, line: 0 }] },
            "Invalid field lines.0.line: must be an integer from 1 to 2147483647"
          ],
          [{ order_id: "o", lines: [{ sku_id: "", qty: 1 }] }, "Invalid field lines.0.sku_id: must not be empty"]
        ]
        for (const [body, message] of cases) {
          const response = yield* c.post("/orders", body)
          assert.deepStrictEqual([JSON.stringify(body), response.status, response.body], [JSON.stringify(body), 400, {
            message
          }])
        }
        expectStatus(yield* c.get("/orders/o"), 404)
      }))

    it.effect("references that do not exist in the scope get 400 naming the field, and nothing is written", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        expectStatus(yield* c.post("/orders", { order_id: id, customer_id: 7777777 }), 400, {
          message: "Invalid field customer_id: customer 7777777 does not exist"
        })
        expectStatus(yield* c.post("/orders", { order_id: id, carrier_id: w.f_carrier }), 400, {
          message: `Invalid field carrier_id: carrier ${w.f_carrier} does not exist`
        })
        expectStatus(yield* c.post("/orders", { order_id: id, customer_id: w.f1_customer }), 400, {
          message: `Invalid field customer_id: customer ${w.f1_customer} does not exist`
        })
        expectStatus(
          yield* c.post("/orders", {
            order_id: id,
            lines: [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "F1-SKU", qty: 1 }]
          }),
          400,
          { message: "Invalid field lines.1.sku_id: sku F1-SKU does not exist" }
        )
        expectStatus(yield* c.get(`/orders/${id}`), 404)
        expectStatus(yield* c.post("/orders", { order_id: id }), 204)
        expectStatus(yield* c.post(`/orders/${id}/lines`, { sku_id: "F-SKU", qty: 1 }), 400, {
          message: "Invalid field sku_id: sku F-SKU does not exist"
        })
        expectStatus(
          yield* c.post(`/orders/${id}/lines`, [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "nope", qty: 1 }]),
          400,
          {
            message: "Invalid field 1.sku_id: sku nope does not exist"
          }
        )
        expectStatus(yield* c.post(`/orders/${id}/lines`, [{ sku_id: "SKU-1", qty: 1 }, { sku_id: "SKU-2" }]), 400, {
          message: "Missing field 1.qty"
        })
        expectStatus(yield* c.post(`/orders/${id}/lines`, { qty: 1 }), 400, { message: "Missing field sku_id" })
        expectStatus(yield* c.post(`/orders/${id}/lines`, "SKU-1"), 400)
        assert.deepStrictEqual((yield* c.get(`/orders/${id}`)).body.lines, [])
      }))

    it.effect("a client scope owns its orders; its site sees them, other clients and sites get 404", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const f1 = yield* client(w, { token: w.userF1.token, site: w.f1 })
        const f2 = yield* client(w, { token: w.userF2.token, site: w.f2 })
        const site = yield* client(w, { token: w.userF.token, site: w.f })
        const p = yield* client(w)
        const id = unique("O")
        expectStatus(
          yield* f1.post("/orders", {
            order_id: id,
            customer_id: w.f1_customer,
            carrier_id: w.f_carrier,
            lines: [{ sku_id: "F1-SKU", qty: 2 }]
          }),
          204
        )
        const seen = yield* f1.get(`/orders/${id}`)
        assert.deepStrictEqual([seen.body.client_id, seen.body.customer, seen.body.carrier], [
          w.f1,
          { id: w.f1_customer, name: "F1 Customer, Delft" },
          "DHL"
        ])
        assert.deepStrictEqual((yield* site.get(`/orders/${id}`)).body, seen.body)
        const notFound = { message: `Order with OrderID ${id} not found` }
        for (const other of [f2, p]) {
          expectStatus(yield* other.get(`/orders/${id}`), 404, notFound)
          expectStatus(yield* other.get(`/orders/${id}/lines`), 404, notFound)
          expectStatus(yield* other.get(`/orders/${id}/lines/1`), 404, notFound)
          expectStatus(yield* other.put(`/orders/${id}`, { ship_dock: "X" }), 404, notFound)
          expectStatus(yield* other.del(`/orders/${id}`), 404, notFound)
          expectStatus(yield* other.del(`/orders/${id}/lines/1`), 404, notFound)
          assert.isFalse((yield* other.get("/orders")).body.some((o: { order_id: string }) => o.order_id === id))
        }
        expectStatus(yield* f2.post(`/orders/${id}/lines`, { sku_id: "F2-SKU", qty: 1 }), 404, notFound)
        expectStatus(yield* f2.put(`/orders/${id}/lines/1`, { sku_id: "F2-SKU", qty: 1 }), 404, notFound)
        // Order ids are unique per site: another client of the site cannot take the id.
        expectStatus(yield* f2.post("/orders", { order_id: id }), 409, {
          message: `Order with OrderID ${id} already exists`
        })
        // Another site may use the same id.
        expectStatus(yield* p.post("/orders", { order_id: id }), 204)
        assert.deepStrictEqual((yield* f1.get(`/orders/${id}`)).body, seen.body)
        // A client scope may not reference another client's customer or SKU.
        const other = unique("O")
        expectStatus(yield* f2.post("/orders", { order_id: other, customer_id: w.f1_customer }), 400, {
          message: `Invalid field customer_id: customer ${w.f1_customer} does not exist`
        })
        expectStatus(yield* f2.post("/orders", { order_id: other, lines: [{ sku_id: "F1-SKU", qty: 1 }] }), 400, {
          message: "Invalid field lines.0.sku_id: sku F1-SKU does not exist"
        })
        // The site scope writes orders of the site itself (client_id null) that no client sees.
        const own = unique("O")
        expectStatus(yield* site.post("/orders", { order_id: own, lines: [{ sku_id: "F1-SKU", qty: 1 }] }), 204)
        assert.strictEqual((yield* site.get(`/orders/${own}`)).body.client_id, null)
        expectStatus(yield* f1.get(`/orders/${own}`), 404)
        const listedBy = (scope: typeof site) =>
          Effect.map(scope.get("/orders"), (response) =>
            response.body
              .map((o: { order_id: string; client_id: string | null }) => `${o.order_id}:${o.client_id}`)
              .filter((entry: string) => entry.startsWith(`${id}:`) || entry.startsWith(`${own}:`)))
        assert.deepStrictEqual(yield* listedBy(site), [`${id}:${w.f1}`, `${own}:null`])
        assert.deepStrictEqual(yield* listedBy(f1), [`${id}:${w.f1}`])
        assert.deepStrictEqual(yield* listedBy(f2), [])
        for (const order of (yield* f2.get("/orders")).body) assert.strictEqual(order.client_id, w.f2)
      }))

    it.effect("concurrent writes: one order per id, generated line numbers never collide", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const c = yield* client(w)
        const id = unique("O")
        const creates = yield* Effect.all(Array.from({ length: 8 }, () => c.post("/orders", { order_id: id })), {
          concurrency: "unbounded"
        })
        assert.deepStrictEqual(creates.map((r) => r.status).sort(), [204, 409, 409, 409, 409, 409, 409, 409])
        const adds = yield* Effect.all(
          Array.from(
            { length: 10 },
            (_, i) => c.post(`/orders/${id}/lines`, [{ sku_id: "SKU-1", qty: i + 1 }, { sku_id: "SKU-2", qty: 1 }])
          ),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(adds.map((r) => r.status), Array.from({ length: 10 }, () => 204))
        const lines = (yield* c.get(`/orders/${id}/lines`)).body
        assert.deepStrictEqual(lines.map((l: { line: number }) => l.line), Array.from({ length: 20 }, (_, i) => i + 1))
        // Each request's two lines got consecutive numbers.
        for (let i = 0; i < 20; i += 2) {
          assert.deepStrictEqual([lines[i].sku_id, lines[i + 1].sku_id], ["SKU-1", "SKU-2"])
        }
      }))

    it.effect("the token comes before the site header, the site header before the body", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const api = yield* Api
        expectStatus(yield* api.request("GET", "/orders"), 401, { message: "Missing authorization token" })
        expectStatus(yield* api.request("POST", "/orders", { token: w.userP.token, body: {} }), 403, {
          message: "Missing header site"
        })
        expectStatus(yield* api.request("GET", "/orders", { token: w.userP.token, site: w.f }), 403, {
          message: "Invalid site"
        })
        expectStatus(yield* api.request("POST", "/orders", { token: w.userP.token, site: w.p, rawBody: "{" }), 400, {
          message: "Request body is not valid JSON"
        })
      }))
  })
}
