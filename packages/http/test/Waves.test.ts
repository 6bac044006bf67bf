import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { insertCarrier, insertCustomer, insertSku } from "../../../testing/fixtures.js"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"

const site = "main"

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`waves on ${label}`, (it) => {
    const request = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) =>
      Effect.gen(function*() {
        const api = yield* Api
        return yield* api.request(method, path, { token: yield* api.login(), site, body })
      })

    const stock = (sku_id: string, loc_id: string, qty: number, expiry_date: string | null = null) =>
      request("POST", "/inventory/adjustments", { sku_id, loc_id, tag_id: `${loc_id}-${sku_id}`, expiry_date, qty })

    const definition = (body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const created = yield* request("POST", "/wave-definitions", body)
        assert.strictEqual(created.status, 204, JSON.stringify(created.body))
        const list = yield* request("GET", "/wave-definitions")
        return list.body[list.body.length - 1].id as number
      })

    it.effect("create, start and read a wave: FEFO claims, tasks, claimsets and statuses", () =>
      Effect.gen(function*() {
        const jansen = yield* insertCustomer({ name: "Jansen", town: "Utrecht" })
        const dhl = yield* insertCarrier({ name: "DHL" })
        yield* insertSku({ sku_id: "W-1" })
        yield* insertSku({ sku_id: "W-2" })
        yield* stock("W-1", "L-LATE", 10, "2099-12-31")
        yield* stock("W-1", "L-EARLY", 4, "2099-01-31")
        yield* stock("W-1", "L-EXPIRED", 50, "2001-01-01")
        yield* stock("W-2", "L-2", 1)
        const order = yield* request("POST", "/orders", {
          order_id: "WO-1",
          customer_id: jansen,
          carrier_id: dhl,
          ship_dock: "DOCK-3",
          lines: [{ sku_id: "W-1", qty: 6 }, { sku_id: "W-2", qty: 2 }]
        })
        assert.strictEqual(order.status, 204, JSON.stringify(order.body))
        const definitionId = yield* definition({
          description: "Jansen",
          criterium_id: 1,
          value: "JANSEN",
          pick_type: 3
        })

        const created = yield* request("POST", "/waves/create", { wavedef_id: definitionId })
        assert.strictEqual(created.status, 200)
        const waveId = created.body.wave_id
        assert.deepStrictEqual(created.body, { message: `Wave met id ${waveId} is aangemaakt`, wave_id: waveId })
        const released = yield* request("GET", `/waves/${waveId}`)
        assert.deepStrictEqual(released.body, {
          id: waveId,
          status: "Released",
          status_id: 14,
          criterium: "Klant - Naam",
          criterium_id: 1,
          value: "JANSEN",
          picktypedescription: "Per klant",
          pick_type: 3,
          autostart: false,
          site_id: "main",
          order_count: 1,
          qty_ordered: 8,
          qty_allocated: 0,
          qty_short: 8
        })
        const orders = yield* request("GET", `/waves/${waveId}/orders`)
        assert.deepStrictEqual(orders.body, [{
          order_id: "WO-1",
          order_date: null,
          status: "Released",
          customer: "Jansen, Utrecht",
          ship_by_date: null,
          carrier: "DHL",
          ship_dock: "DOCK-3"
        }])

        const started = yield* request("POST", "/waves/start", { wave_id: waveId })
        assert.deepStrictEqual([started.status, started.body], [200, { message: `Wave met id ${waveId} is gestart` }])
        const again = yield* request("POST", "/waves/start", { wave_id: waveId })
        assert.deepStrictEqual([again.status, again.body], [409, { message: `Wave met id ${waveId} is al gestart` }])

        const claims = yield* request("GET", `/waves/${waveId}/claims`)
        assert.deepStrictEqual(
          claims.body.map((c: { sku_id: string; qty: number; loc_id: string; status: string; line_id: number }) => [
            c.sku_id,
            c.line_id,
            c.qty,
            c.loc_id,
            c.status
          ]),
          [["W-1", 1, 4, "L-EARLY", "allocated"], ["W-1", 1, 2, "L-LATE", "allocated"], [
            "W-2",
            2,
            1,
            "L-2",
            "allocated"
          ]]
        )
        const claimsets = yield* request("GET", `/waves/${waveId}/claimsets`)
        assert.deepStrictEqual(claimsets.body.map(({ id: _, ...set }: { id: number }) => set), [{
          claimset_break: "Jansen",
          status: "released",
          pick_type: "Per klant",
          claim_count: 3,
          total_qty: 7
        }])
        assert.isTrue(claims.body.every((c: { claimset: number }) => c.claimset === claimsets.body[0].id))
        const tasks = yield* request("GET", `/waves/${waveId}/tasks`)
        assert.deepStrictEqual(Object.keys(tasks.body[0]).sort(), [
          "claimset",
          "creation_date",
          "final_loc_id",
          "from_loc_id",
          "id",
          "quantity",
          "sku_id",
          "tag_id",
          "to_loc_id",
          "wave_id"
        ])
        assert.deepStrictEqual(
          tasks.body.map((t: { quantity: number; from_loc_id: string; to_loc_id: string; final_loc_id: string }) => [
            t.quantity,
            t.from_loc_id,
            t.to_loc_id,
            t.final_loc_id
          ]),
          [[4, "L-EARLY", "DOCK-3", "DOCK-3"], [2, "L-LATE", "DOCK-3", "DOCK-3"], [1, "L-2", "DOCK-3", "DOCK-3"]]
        )
        assert.match(tasks.body[0].creation_date, /^\d{4}-\d{2}-\d{2}$/)
        const detail = yield* request("GET", `/waves/${waveId}`)
        assert.deepStrictEqual([detail.body.status, detail.body.qty_allocated, detail.body.qty_short], [
          "Allocated",
          7,
          1
        ])
        const orderAfter = yield* request("GET", "/orders/WO-1")
        assert.deepStrictEqual(orderAfter.body.order_status, { id: 16, description: "Partially Allocated" })
        const overview = yield* request("GET", "/inventory/overview")
        const allocated = Object.fromEntries(
          overview.body.map((c: { loc_id: string; qty_allocated: number }) => [c.loc_id, c.qty_allocated])
        )
        assert.deepStrictEqual([allocated["L-EARLY"], allocated["L-LATE"], allocated["L-EXPIRED"], allocated["L-2"]], [
          4,
          2,
          0,
          1
        ])
        const ledger = yield* request("GET", "/inventory/transactions")
        const allocations = ledger.body.filter((t: { transaction_type: string }) => t.transaction_type === "Allocate")
        assert.strictEqual(allocations.length, 3)
        assert.deepStrictEqual([allocations[0].order_id, allocations[0].line_id, allocations[0].qty], ["WO-1", 1, 4])

        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<{ event_type: string; data: string }>`SELECT event_type, data FROM events
          WHERE event_type IN ('order_allocated', 'wave_started') ORDER BY id`
        const raised = events.map((e) => [e.event_type, JSON.parse(e.data)] as const)
        assert.deepStrictEqual(raised.filter(([, d]) => d.order_id === "WO-1"), [["order_allocated", orderAfter.body]])
        assert.deepStrictEqual(raised.filter(([type, d]) => type === "wave_started" && d.id === waveId), [[
          "wave_started",
          detail.body
        ]])

        // A line of an allocated order cannot change.
        const line = yield* request("POST", "/orders/WO-1/lines", { sku_id: "W-1", qty: 1 })
        assert.strictEqual(line.status, 409)

        const removed = yield* request("DELETE", `/waves/${waveId}`)
        assert.strictEqual(removed.status, 204)
        const gone = yield* request("GET", `/waves/${waveId}`)
        assert.deepStrictEqual([gone.status, gone.body], [404, { message: `Wave met id ${waveId} niet gevonden` }])
        const restored = yield* request("GET", "/inventory/overview")
        assert.isTrue(restored.body.every((c: { qty_allocated: number }) => c.qty_allocated === 0))
        const orderReleased = yield* request("GET", "/orders/WO-1")
        assert.deepStrictEqual(orderReleased.body.order_status, { id: 14, description: "Released" })
        const ledgerAfter = yield* request("GET", "/inventory/transactions")
        assert.strictEqual(
          ledgerAfter.body.filter((t: { transaction_type: string }) => t.transaction_type === "Deallocate").length,
          3
        )
      }))

    it.effect("autostart, empty waves and missing waves get the documented messages", () =>
      Effect.gen(function*() {
        yield* insertSku({ sku_id: "W-3" })
        yield* stock("W-3", "L-3", 5)
        yield* request("POST", "/orders", { order_id: "WO-AUTO", lines: [{ sku_id: "W-3", qty: 5 }] })
        const auto = yield* definition({
          description: "Auto",
          criterium_id: 2,
          value: "wo-auto",
          pick_type: 1,
          autostart: true
        })
        const created = yield* request("POST", "/waves/create", { wavedef_id: auto })
        const waveId = created.body.wave_id
        assert.deepStrictEqual(created.body, {
          message: `Wave met id ${waveId} wordt aangemaakt en automatisch gestart`,
          wave_id: waveId
        })
        const order = yield* request("GET", "/orders/WO-AUTO")
        assert.deepStrictEqual(order.body.order_status, { id: 15, description: "Allocated" })
        const claimsets = yield* request("GET", `/waves/${waveId}/claimsets`)
        assert.deepStrictEqual(claimsets.body.map((s: { claimset_break: string }) => s.claimset_break), ["WO-AUTO"])

        // The order is in an unfinished wave: no other wave takes it.
        const empty = yield* request("POST", "/waves/create", { wavedef_id: auto })
        const emptyId = empty.body.wave_id
        assert.deepStrictEqual(empty.body, {
          message: `Wave met id ${emptyId} is aangemaakt maar bevat geen orders`,
          wave_id: emptyId
        })
        const emptyWave = yield* request("GET", `/waves/${emptyId}`)
        assert.strictEqual(emptyWave.body.status_id, 14)
        const startEmpty = yield* request("POST", "/waves/start", { wave_id: emptyId })
        assert.deepStrictEqual([startEmpty.status, startEmpty.body], [200, { message: "Geen orders in deze wave" }])

        const missing = yield* request("POST", "/waves/start", { wave_id: 999999 })
        assert.deepStrictEqual([missing.status, missing.body], [404, { message: "Wave met id 999999 niet gevonden" }])
        const noDefinition = yield* request("POST", "/waves/create", { wavedef_id: 999999 })
        assert.strictEqual(noDefinition.status, 404)
        const bad = yield* request("POST", "/waves/start", { wave_id: "x" })
        assert.strictEqual(bad.status, 400)
        assert.match(bad.body.message, /wave_id/)
        for (const path of ["orders", "claimsets", "claims", "tasks"]) {
          const response = yield* request("GET", `/waves/999999/${path}`)
          assert.strictEqual(response.status, 404)
        }
      }))

    it.effect("DELETE /orders/:id of an allocated order releases its allocation", () =>
      Effect.gen(function*() {
        yield* insertSku({ sku_id: "W-4" })
        yield* stock("W-4", "L-4", 3)
        yield* request("POST", "/orders", { order_id: "WO-DEL", lines: [{ sku_id: "W-4", qty: 2 }] })
        const byId = yield* definition({
          description: "Del",
          criterium_id: 2,
          value: "WO-DEL",
          pick_type: 2,
          autostart: true
        })
        const created = yield* request("POST", "/waves/create", { wavedef_id: byId })
        const deleted = yield* request("DELETE", "/orders/WO-DEL")
        assert.strictEqual(deleted.status, 204, JSON.stringify(deleted.body))
        const overview = yield* request("GET", "/inventory/overview")
        const content = overview.body.find((c: { sku_id: string }) => c.sku_id === "W-4")
        assert.strictEqual(content.qty_allocated, 0)
        const tasks = yield* request("GET", `/waves/${created.body.wave_id}/tasks`)
        assert.deepStrictEqual(tasks.body, [])
      }))
  })
}
