import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { insertSku } from "../../../testing/fixtures.js"
import { Api, serverOnApiTestStores, type TestResponse } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { addStock, contentRows, ledgerRows, session, startedWave } from "./PickingWorld.js"

/** Status and message of an error response. */
const answer = (response: TestResponse) => [response.status, response.body?.message]

interface Task {
  readonly id: number
  readonly quantity: number
  readonly sku_id: string
  readonly from_loc_id: string
  readonly to_loc_id: string
  readonly wave_id: number
  readonly claimset: number
}

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`picking on ${label}`, (it) => {
    it.effect("lists, confirms and short-picks tasks, moves the statuses on, and ships the order", () =>
      Effect.gen(function*() {
        const request = yield* session
        const [a, b] = [unique("PA"), unique("PB")]
        yield* insertSku({ sku_id: a })
        yield* insertSku({ sku_id: b })
        yield* addStock(request, a, "A-1", 10)
        yield* addStock(request, b, "B-1", 5)
        const orderId = unique("PO")
        const lines = [{ sku_id: a, qty: 4 }, { sku_id: b, qty: 3 }]
        const waveId = yield* startedWave(request, [{ order_id: orderId, lines }])

        const waveTasks = yield* request("GET", `/waves/${waveId}/tasks`)
        const listed = yield* request("GET", `/tasks?wave_id=${waveId}`)
        expectStatus(listed, 200)
        assert.deepStrictEqual(listed.body, waveTasks.body)
        const [taskA, taskB] = listed.body as ReadonlyArray<Task>
        assert.deepStrictEqual([taskA.sku_id, taskA.quantity, taskB.sku_id, taskB.quantity], [a, 4, b, 3])
        const all = yield* request("GET", "/tasks")
        assert.isTrue(all.body.some((t: Task) => t.id === taskA.id))
        const ids = all.body.map((t: Task) => t.id)
        assert.deepStrictEqual(ids, [...ids].sort((x: number, y: number) => x - y))
        const bySku = yield* request("GET", `/tasks?sku_id=${b}`)
        assert.deepStrictEqual(bySku.body, [taskB])
        const both = yield* request("GET", `/tasks?wave_id=${waveId}&sku_id=${a}`)
        assert.deepStrictEqual(both.body, [taskA])
        const windowed = yield* request("GET", `/tasks?wave_id=${waveId}&limit=1&offset=1`)
        assert.deepStrictEqual(windowed.body, [taskB])

        // The first task in full, with an empty body.
        expectStatus(yield* request("POST", `/tasks/${taskA.id}/confirm`), 204)
        const [contentA] = yield* contentRows([a])
        assert.deepStrictEqual([contentA.qty, contentA.qty_allocated], [6, 0])
        let order = yield* request("GET", `/orders/${orderId}`)
        assert.deepStrictEqual(order.body.order_status, { id: 17, description: "In Progress" })
        assert.deepStrictEqual(order.body.lines.map((l: { qty_picked: number }) => l.qty_picked), [4, 0])
        let wave = yield* request("GET", `/waves/${waveId}`)
        assert.deepStrictEqual([wave.body.status_id, wave.body.status], [17, "In Progress"])
        let claimsets = yield* request("GET", `/waves/${waveId}/claimsets`)
        assert.deepStrictEqual(claimsets.body.map((s: { status: string }) => s.status), ["released"])
        const claims = yield* request("GET", `/waves/${waveId}/claims`)
        assert.deepStrictEqual(
          claims.body.map((c: { id: number; status: string; qty: number }) => [c.id, c.status, c.qty]),
          [[taskA.id, "picked", 4], [taskB.id, "allocated", 3]]
        )
        const open = yield* request("GET", `/tasks?wave_id=${waveId}`)
        assert.deepStrictEqual(open.body, [taskB])
        const transactions = yield* request("GET", "/inventory/transactions")
        const pick = transactions.body.find((t: { transaction_type: string; sku_id: string }) =>
          t.transaction_type === "Pick" && t.sku_id === a
        )
        assert.deepInclude(pick, {
          content_id: contentA.content_id,
          from_loc_id: "A-1",
          to_loc_id: taskA.to_loc_id,
          final_loc_id: taskA.to_loc_id,
          qty: 4,
          order_id: orderId,
          line_id: 1,
          notes: `Task ${taskA.id}`
        })

        const again = yield* request("POST", `/tasks/${taskA.id}/confirm`, {})
        assert.deepStrictEqual([again.status, again.body], [404, { message: `Task with id ${taskA.id} not found` }])

        // An order in progress keeps its lines, and neither it nor its wave can be deleted.
        expectStatus(yield* request("POST", `/orders/${orderId}/lines`, { sku_id: a, qty: 1 }), 409)
        expectStatus(yield* request("PUT", `/orders/${orderId}/lines/1`, { sku_id: a, qty: 1 }), 409)
        expectStatus(yield* request("DELETE", `/orders/${orderId}/lines/2`), 409)
        expectStatus(yield* request("DELETE", `/orders/${orderId}`), 409)
        expectStatus(yield* request("DELETE", `/waves/${waveId}`), 409)
        const early = yield* request("POST", `/orders/${orderId}/ship`)
        assert.deepStrictEqual([early.status, early.body], [409, {
          message: `Order with OrderID ${orderId} still has open tasks`
        }])

        const over = yield* request("POST", `/tasks/${taskB.id}/confirm`, { qty: 4 })
        assert.deepStrictEqual([over.status, over.body], [400, {
          message: "Invalid field qty: must be at most the task's quantity, 3"
        }])
        for (const qty of [-1, 1.5, "2"]) {
          const bad = yield* request("POST", `/tasks/${taskB.id}/confirm`, { qty })
          assert.strictEqual(bad.status, 400)
          assert.match(bad.body.message, /^Invalid field qty: /)
        }

        // The second task short: 2 of 3 picked, 1 lost.
        expectStatus(yield* request("POST", `/tasks/${taskB.id}/confirm`, { qty: 2 }), 204)
        const [contentB] = yield* contentRows([b])
        assert.deepStrictEqual([contentB.qty, contentB.qty_allocated], [2, 0])
        order = yield* request("GET", `/orders/${orderId}`)
        assert.deepStrictEqual(order.body.order_status, { id: 18, description: "Picked" })
        assert.deepStrictEqual(order.body.lines.map((l: { qty_picked: number }) => l.qty_picked), [4, 2])
        wave = yield* request("GET", `/waves/${waveId}`)
        assert.deepStrictEqual([wave.body.status_id, wave.body.status, wave.body.qty_allocated], [20, "Complete", 6])
        claimsets = yield* request("GET", `/waves/${waveId}/claimsets`)
        assert.deepStrictEqual(
          claimsets.body.map((s: { status: string; total_qty: number }) => [s.status, s.total_qty]),
          [["picked", 6]]
        )
        assert.deepStrictEqual((yield* request("GET", `/waves/${waveId}/tasks`)).body, [])
        const ledgerB = yield* ledgerRows([b])
        assert.deepStrictEqual(ledgerB.slice(-2), [
          {
            transaction_type: "Pick",
            content_id: contentB.content_id,
            qty: 2,
            order_id: orderId,
            line_id: 2,
            notes: `Task ${taskB.id}`
          },
          {
            transaction_type: "Lost",
            content_id: contentB.content_id,
            qty: 1,
            order_id: orderId,
            line_id: 2,
            notes: `Short pick of task ${taskB.id}`
          }
        ])
        const users = yield* request("GET", "/users")
        const admin = users.body.find((u: { email: string }) => u.email === "admin@example.com")
        const lost = yield* request("GET", "/inventory/lostandfound")
        const item = lost.body.find((l: { sku_id: string }) => l.sku_id === b)
        assert.deepInclude(item, {
          content_id: contentB.content_id,
          loc_id: "B-1",
          tag_id: `B-1-${b}`,
          qty: 1,
          created_by: admin.userId,
          notes: `Short pick of task ${taskB.id}`
        })

        // Shipping.
        expectStatus(yield* request("POST", `/orders/${orderId}/ship`), 204)
        const shipped = yield* request("GET", `/orders/${orderId}`)
        assert.deepStrictEqual(shipped.body.order_status, { id: 19, description: "Shipped" })
        assert.deepStrictEqual(
          shipped.body.lines.map((l: { qty_picked: number; qty_shipped: number }) => [l.qty_picked, l.qty_shipped]),
          [[4, 4], [2, 2]]
        )
        const shipments = (yield* ledgerRows([a, b])).filter((t) => t.transaction_type === "Shipment")
        assert.deepStrictEqual(shipments.map((t) => [t.content_id, t.qty, t.line_id]), [
          [contentA.content_id, 4, 1],
          [contentB.content_id, 2, 2]
        ])
        const [contentAAfter] = yield* contentRows([a])
        assert.strictEqual(contentAAfter.qty, 6)
        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<{ site_id: string; client_id: string | null; data: string }>`
          SELECT site_id, client_id, data FROM events WHERE event_type = 'order_shipped' ORDER BY id`
        const event = events.find((e) => JSON.parse(e.data).order_id === orderId)!
        assert.deepStrictEqual([event.site_id, event.client_id, JSON.parse(event.data)], ["main", null, shipped.body])
        expectStatus(yield* request("DELETE", `/orders/${orderId}`), 409)
        expectStatus(yield* request("DELETE", `/waves/${waveId}`), 409)
        const twice = yield* request("POST", `/orders/${orderId}/ship`)
        assert.deepStrictEqual(answer(twice), [409, `Order with OrderID ${orderId} is already shipped`])
      }))

    it.effect("qty 0 loses the whole task and removes the claim; an order with nothing picked is Released again", () =>
      Effect.gen(function*() {
        const request = yield* session
        const sku = unique("PZ")
        yield* insertSku({ sku_id: sku })
        yield* addStock(request, sku, "Z-1", 3)
        const orderId = unique("PO")
        const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty: 2 }] }])
        const [task] = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<Task>

        expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`, { qty: 0 }), 204)
        const lost = yield* request("GET", "/inventory/lostandfound")
        assert.deepInclude(lost.body.find((l: { sku_id: string }) => l.sku_id === sku), {
          qty: 2,
          notes: `Short pick of task ${task.id}`
        })
        const [content] = yield* contentRows([sku])
        assert.deepStrictEqual([content.qty, content.qty_allocated], [1, 0])
        const ledger = yield* ledgerRows([sku])
        assert.deepStrictEqual(
          ledger.map((t) => [t.transaction_type, t.qty]),
          [["Adjustment", 3], ["Allocate", 2], ["Lost", 2]]
        )
        assert.deepStrictEqual((yield* request("GET", `/waves/${waveId}/claims`)).body, [])
        assert.deepStrictEqual((yield* request("GET", `/waves/${waveId}/claimsets`)).body, [])
        const order = yield* request("GET", `/orders/${orderId}`)
        assert.deepStrictEqual([order.body.order_status.id, order.body.lines[0].qty_picked], [14, 0])
        assert.strictEqual((yield* request("GET", `/waves/${waveId}`)).body.status_id, 20)
        const ship = yield* request("POST", `/orders/${orderId}/ship`)
        assert.deepStrictEqual(answer(ship), [409, `Order with OrderID ${orderId} has nothing picked`])
        const again = yield* request("POST", `/tasks/${task.id}/confirm`, { qty: 0 })
        assert.strictEqual(again.status, 404)
        // Holding nothing, the order may go: it is no dead end.
        expectStatus(yield* request("DELETE", `/orders/${orderId}`), 204)
      }))

    it.effect("shipping needs a picked order; the endpoints check ids, scope and the token", () =>
      Effect.gen(function*() {
        const request = yield* session
        const released = unique("PO")
        const sku = unique("PS")
        yield* insertSku({ sku_id: sku })
        expectStatus(yield* request("POST", "/orders", { order_id: released, lines: [{ sku_id: sku, qty: 1 }] }), 204)
        const ship = yield* request("POST", `/orders/${released}/ship`)
        assert.deepStrictEqual(answer(ship), [409, `Order with OrderID ${released} has nothing picked`])
        const missing = yield* request("POST", "/orders/NO-SUCH-ORDER/ship")
        assert.deepStrictEqual(answer(missing), [404, "Order with OrderID NO-SUCH-ORDER not found"])
        const noTask = yield* request("POST", "/tasks/999999/confirm", {})
        assert.deepStrictEqual([noTask.status, noTask.body], [404, { message: "Task with id 999999 not found" }])
        const badId = yield* request("POST", "/tasks/abc/confirm", {})
        assert.deepStrictEqual(answer(badId), [400, "Invalid field id: must be an integer id"])
        const badWave = yield* request("GET", "/tasks?wave_id=x")
        assert.deepStrictEqual(answer(badWave), [400, "Invalid field wave_id: must be an integer id"])
        const notObject = yield* request("POST", "/tasks/1/confirm", "qty")
        assert.strictEqual(notObject.status, 400)
        const api = yield* Api
        const guarded = [["GET", "/tasks"], ["POST", "/tasks/1/confirm"], ["POST", `/orders/${released}/ship`]] as const
        for (const [method, path] of guarded) {
          assert.strictEqual((yield* api.request(method, path, { site: "main" })).status, 401)
          assert.strictEqual((yield* api.request(method, path, { token: yield* api.login() })).status, 403)
        }

        // Another site sees none of main's tasks and cannot confirm them.
        yield* addStock(request, sku, "S-1", 1)
        const orderId = unique("PO")
        const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty: 1 }] }])
        const [task] = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<Task>
        const other = unique("SITE")
        expectStatus(yield* request("POST", "/sites", { site_id: other, name: "Other" }), 204)
        assert.deepStrictEqual((yield* request("GET", "/tasks", undefined, other)).body, [])
        const foreign = yield* request("POST", `/tasks/${task.id}/confirm`, {}, other)
        assert.deepStrictEqual([foreign.status, foreign.body], [404, { message: `Task with id ${task.id} not found` }])
        const foreignShip = yield* request("POST", `/orders/${orderId}/ship`, undefined, other)
        assert.strictEqual(foreignShip.status, 404)
        assert.strictEqual((yield* request("GET", `/orders/${orderId}`)).body.order_status.id, 15)
      }))

    it.effect("a client's tasks and orders are its own; the site sees and ships them, the event names the client", () =>
      Effect.gen(function*() {
        const request = yield* session
        const [site, mine, theirs] = [unique("F"), unique("C1"), unique("C2")]
        expectStatus(yield* request("POST", "/sites", { site_id: site, name: "F", fulfillment: true }), 204)
        expectStatus(yield* request("POST", "/clients", { client_id: mine, name: "C1" }, site), 204)
        expectStatus(yield* request("POST", "/clients", { client_id: theirs, name: "C2" }, site), 204)
        const sku = unique("PF")
        yield* insertSku({ site_id: site, client_id: mine, sku_id: sku })
        const adjusted = { sku_id: sku, loc_id: "F-1", tag_id: "F-1", qty: 4 }
        expectStatus(yield* request("POST", "/inventory/adjustments", adjusted, mine), 204)
        const orderId = unique("PO")
        const order = { order_id: orderId, lines: [{ sku_id: sku, qty: 3 }] }
        expectStatus(yield* request("POST", "/orders", order, mine), 204)
        const definition = { description: "F", criterium_id: 2, value: orderId, pick_type: 1, autostart: true }
        expectStatus(yield* request("POST", "/wave-definitions", definition, site), 204)
        const definitionId = (yield* request("GET", "/wave-definitions", undefined, site)).body.at(-1).id
        const created = yield* request("POST", "/waves/create", { wavedef_id: definitionId }, mine)
        expectStatus(created, 200)

        const [task] = (yield* request("GET", "/tasks", undefined, mine)).body as ReadonlyArray<Task>
        assert.deepStrictEqual([task.sku_id, task.quantity, task.wave_id], [sku, 3, created.body.wave_id])
        assert.deepStrictEqual((yield* request("GET", "/tasks", undefined, site)).body, [task])
        assert.deepStrictEqual((yield* request("GET", "/tasks", undefined, theirs)).body, [])
        assert.strictEqual((yield* request("POST", `/tasks/${task.id}/confirm`, {}, theirs)).status, 404)
        expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`, { qty: 2 }, mine), 204)
        const lost = yield* request("GET", "/inventory/lostandfound", undefined, mine)
        assert.deepInclude(lost.body.find((l: { sku_id: string }) => l.sku_id === sku), { qty: 1, client_id: mine })
        assert.strictEqual((yield* request("POST", `/orders/${orderId}/ship`, undefined, theirs)).status, 404)
        expectStatus(yield* request("POST", `/orders/${orderId}/ship`, undefined, site), 204)
        const shipped = (yield* request("GET", `/orders/${orderId}`, undefined, mine)).body
        assert.deepStrictEqual([shipped.client_id, shipped.lines[0].qty_shipped], [mine, 2])
        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<{ site_id: string; client_id: string | null; data: string }>`
          SELECT site_id, client_id, data FROM events WHERE event_type = 'order_shipped' AND site_id = ${site}`
        assert.deepStrictEqual(events.map((e) => [e.site_id, e.client_id, JSON.parse(e.data)]), [[site, mine, shipped]])
      }))

    it.effect("two clients confirming the same task at once: one wins, the other gets 404, stock moves once", () =>
      Effect.gen(function*() {
        const request = yield* session
        const sku = unique("PC")
        yield* insertSku({ sku_id: sku })
        const rounds = 12
        for (let i = 0; i < rounds; i++) yield* addStock(request, sku, `C-${i}`, 5)
        const orders = Array.from({ length: rounds }, (_, i) => ({
          order_id: unique(`PC${i}`),
          lines: [{ sku_id: sku, qty: 5 }]
        }))
        const waveId = yield* startedWave(request, orders, 2)
        const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<Task>
        assert.strictEqual(tasks.length, rounds)
        for (const [i, task] of tasks.entries()) {
          // Odd rounds race a full pick against a short one.
          const bodies = i % 2 === 0 ? [{}, {}] : [{ qty: 5 }, { qty: 3 }]
          const results = yield* Effect.all(bodies.map((body) => request("POST", `/tasks/${task.id}/confirm`, body)), {
            concurrency: 2
          })
          assert.deepStrictEqual(results.map((r) => r.status).sort(), [204, 404], JSON.stringify(results))
        }
        const contents = yield* contentRows([sku])
        const ledger = yield* ledgerRows([sku])
        for (const content of contents) {
          const moved = ledger.filter((t) =>
            t.content_id === content.content_id && (t.transaction_type === "Pick" || t.transaction_type === "Lost")
          )
          assert.strictEqual(moved.reduce((sum, t) => sum + t.qty, 0), 5)
          assert.deepStrictEqual([content.qty, content.qty_allocated], [0, 0])
        }
        const sql = yield* SqlClient.SqlClient
        const picks = yield* sql<{ notes: string; n: number }>`SELECT notes, CAST(count(*) AS INTEGER) AS n
          FROM inventory_transactions WHERE sku_id = ${sku} AND transaction_type = 'Pick' GROUP BY notes`
        assert.isTrue(picks.every((p) => p.n === 1))
        const lines = yield* sql<{ qty_picked: number }>`SELECT l.qty_picked FROM order_lines l
          JOIN orders o ON o.id = l.order_ref WHERE l.sku_id = ${sku}`
        const picked = ledger.filter((t) => t.transaction_type === "Pick").reduce((sum, t) => sum + t.qty, 0)
        assert.strictEqual(lines.reduce((sum, l) => sum + l.qty_picked, 0), picked)
        const wave = yield* request("GET", `/waves/${waveId}`)
        assert.strictEqual(wave.body.status_id, 20)
      }))
  })
}
