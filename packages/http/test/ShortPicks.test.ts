/**
 * Short picks with the site settings of the warehouse cycle: re-allocation of the shortfall,
 * backorders, and the control count, through the real server.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { insertSku } from "../../../testing/fixtures.js"
import { serverOnApiTestStores, type TestResponse } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { addStock, contentRows, ledgerRows, type Request, session, startedWave } from "./PickingWorld.js"

interface Task {
  readonly id: number
  readonly quantity: number
  readonly from_loc_id: string
  readonly claimset: number
}

const answer = (response: TestResponse) => [response.status, response.body?.message]

/** The fields of an order line before backorders existed. */
const lineKeys = ["order_id", "line", "sku_id", "qty", "qty_picked", "qty_shipped"]

const settingsOff = { reallocate_short_picks: false, backorders: false, count_on_short_pick: false }

/** Sets the short-pick settings of site `main`: those not named are off. */
const useSettings = (request: Request, settings: Partial<typeof settingsOff>) =>
  Effect.map(
    request("PUT", "/sites/main/settings", { ...settingsOff, ...settings }),
    (response) => expectStatus(response, 204)
  )

/** A SKU with stock at `L-1`, `L-2`, … (oldest first), and a started wave of one order of `qty` of it. */
const shortPickWorld = (request: Request, stock: ReadonlyArray<number>, qty: number) =>
  Effect.gen(function*() {
    const sku = unique("SP")
    yield* insertSku({ sku_id: sku })
    const locations = stock.map((_, i) => `${sku}-L${i + 1}`)
    for (const [i, loc] of locations.entries()) yield* addStock(request, sku, loc, stock[i])
    const orderId = unique("SPO")
    const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty }] }])
    const tasks = () =>
      Effect.map(request("GET", `/tasks?wave_id=${waveId}`), (response) => response.body as ReadonlyArray<Task>)
    return { sku, locations, orderId, waveId, tasks }
  })

const eventsOf = (type: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ data: string }>`SELECT data FROM events WHERE event_type = ${type} ORDER BY id`
    return rows.map((row) => JSON.parse(row.data))
  }).pipe(Effect.orDie)

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`short picks on ${label}`, (it) => {
    it.effect("re-allocation claims the shortfall from the next stock by FEFO, in the task's wave and claimset", () =>
      Effect.gen(function*() {
        const request = yield* session
        yield* useSettings(request, { reallocate_short_picks: true })
        const w = yield* shortPickWorld(request, [5, 2, 3], 4)
        const [task] = yield* w.tasks()
        assert.deepStrictEqual([task.from_loc_id, task.quantity], [w.locations[0], 4])

        expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`, { qty: 1 }), 204)
        // 3 short: 2 from the next oldest stock, 1 from the one after; the shorted content is left out.
        const next = yield* w.tasks()
        assert.deepStrictEqual(next.map((t) => [t.from_loc_id, t.quantity, t.claimset]), [
          [w.locations[1], 2, task.claimset],
          [w.locations[2], 1, task.claimset]
        ])
        const ledger = yield* ledgerRows([w.sku])
        assert.deepStrictEqual(ledger.slice(3).map((t) => [t.transaction_type, t.qty]), [
          ["Allocate", 4],
          ["Allocate", 2],
          ["Allocate", 1],
          ["Pick", 1],
          ["Lost", 3]
        ])
        assert.deepStrictEqual((yield* contentRows([w.sku])).map((c) => [c.qty, c.qty_allocated]), [[1, 0], [2, 2], [
          3,
          1
        ]])
        let order = (yield* request("GET", `/orders/${w.orderId}`)).body
        assert.deepStrictEqual([order.order_status.id, order.lines[0].qty_picked], [17, 1])
        // Nothing backordered: the order shows the fields it always showed.
        assert.deepStrictEqual(Object.keys(order.lines[0]), lineKeys)
        assert.notProperty(order, "backorder_of")

        for (const t of next) expectStatus(yield* request("POST", `/tasks/${t.id}/confirm`), 204)
        order = (yield* request("GET", `/orders/${w.orderId}`)).body
        assert.deepStrictEqual([order.order_status.id, order.lines[0].qty_picked], [18, 4])
        expectStatus(yield* request("POST", `/orders/${w.orderId}/ship`), 204)
        assert.deepStrictEqual((yield* eventsOf("order_backordered")).filter((e) => e.backorder_of === w.orderId), [])
        yield* useSettings(request, {})
      }))

    it.effect("the confirmation's reallocate overrides the setting, and no stock to take re-allocates nothing", () =>
      Effect.gen(function*() {
        const request = yield* session
        yield* useSettings(request, {})
        const w = yield* shortPickWorld(request, [4, 5], 4)
        const [task] = yield* w.tasks()
        expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`, { qty: 2, reallocate: true }), 204)
        assert.deepStrictEqual((yield* w.tasks()).map((t) => [t.from_loc_id, t.quantity]), [[w.locations[1], 2]])

        const lone = yield* shortPickWorld(request, [3], 3)
        const [only] = yield* lone.tasks()
        expectStatus(yield* request("POST", `/tasks/${only.id}/confirm`, { qty: 1, reallocate: true }), 204)
        assert.deepStrictEqual(yield* lone.tasks(), [])
        assert.strictEqual((yield* request("GET", `/orders/${lone.orderId}`)).body.order_status.id, 18)
      }))

    it.effect("with backorders, what is not re-allocated ships later as a Released backorder order", () =>
      Effect.gen(function*() {
        const request = yield* session
        yield* useSettings(request, { backorders: true, reallocate_short_picks: true })
        // 6 wanted from 4 + 1: 1 re-allocated, 1 backordered.
        const w = yield* shortPickWorld(request, [4, 1], 5)
        const [first, second] = yield* w.tasks()
        assert.deepStrictEqual([first.quantity, second.quantity], [4, 1])
        expectStatus(yield* request("POST", `/tasks/${second.id}/confirm`), 204)
        expectStatus(yield* request("POST", `/tasks/${first.id}/confirm`, { qty: 3, reason_code: "Damaged" }), 204)
        assert.deepStrictEqual(yield* w.tasks(), [])
        const original = (yield* request("GET", `/orders/${w.orderId}`)).body
        assert.deepStrictEqual([original.lines[0].qty_picked, original.lines[0].qty_backordered], [4, 1])
        assert.notProperty(original, "backorder_of")
        const lost = (yield* ledgerRows([w.sku])).filter((t) => t.transaction_type === "Lost")
        assert.deepStrictEqual(lost.map((t) => t.qty), [1])

        expectStatus(yield* request("POST", `/orders/${w.orderId}/ship`), 204)
        const backorder = yield* request("GET", `/orders/${w.orderId}-B1`)
        expectStatus(backorder, 200)
        assert.deepInclude(backorder.body, {
          order_id: `${w.orderId}-B1`,
          order_status: { id: 14, description: "Released" },
          customer: original.customer,
          ship_dock: original.ship_dock,
          backorder_of: w.orderId
        })
        assert.deepStrictEqual(backorder.body.lines.map((l: { line: number; qty: number }) => [l.line, l.qty]), [[
          1,
          1
        ]])
        const shipped = (yield* request("GET", `/orders/${w.orderId}`)).body
        // Demand is conserved: shipped plus backordered is what was ordered.
        assert.strictEqual(shipped.lines[0].qty_shipped + backorder.body.lines[0].qty, 5)
        const [event] = (yield* eventsOf("order_backordered")).filter((e) => e.backorder_of === w.orderId)
        assert.deepStrictEqual(event, backorder.body)

        // The backorder is an order like any other: the customer's wave definition takes it to a wave.
        yield* addStock(request, w.sku, `${w.sku}-L3`, 1)
        const definitions = (yield* request("GET", "/wave-definitions")).body as ReadonlyArray<
          { id: number; value: string }
        >
        const definition = definitions.find((d) => d.value === original.customer.name)!
        const created = yield* request("POST", "/waves/create", { wavedef_id: definition.id })
        expectStatus(created, 200)
        expectStatus(yield* request("POST", "/waves/start", { wave_id: created.body.wave_id }), 200)
        const tasks = (yield* request("GET", `/tasks?wave_id=${created.body.wave_id}`)).body as ReadonlyArray<Task>
        assert.deepStrictEqual(tasks.map((t) => [t.from_loc_id, t.quantity]), [[`${w.sku}-L3`, 1]])
        yield* useSettings(request, {})
      }))

    it.effect("an order with nothing picked is Released whole: nothing backordered, no backorder order", () =>
      Effect.gen(function*() {
        const request = yield* session
        yield* useSettings(request, { backorders: true })
        const w = yield* shortPickWorld(request, [2], 2)
        const [task] = yield* w.tasks()
        expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`, { qty: 0 }), 204)
        const order = (yield* request("GET", `/orders/${w.orderId}`)).body
        assert.strictEqual(order.order_status.id, 14)
        assert.deepStrictEqual(Object.keys(order.lines[0]), lineKeys)
        yield* useSettings(request, {})
      }))

    it.effect("a short pick opens a control count of its managed location unless the reason rules one out", () =>
      Effect.gen(function*() {
        const request = yield* session
        yield* useSettings(request, { count_on_short_pick: true })
        const sku = unique("SC")
        yield* insertSku({ sku_id: sku })
        const [counted, damaged] = [`${sku}-C`, `${sku}-D`]
        for (const loc of [counted, damaged]) {
          expectStatus(yield* request("POST", "/locations", { loc_id: loc, loc_type: "Storage" }), 201)
          yield* addStock(request, sku, loc, 2)
        }
        const orderId = unique("SCO")
        const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty: 4 }] }])
        const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<Task>
        const at = (loc: string) => tasks.find((t) => t.from_loc_id === loc)!
        expectStatus(yield* request("POST", `/tasks/${at(counted).id}/confirm`, { qty: 1 }), 204)
        expectStatus(
          yield* request("POST", `/tasks/${at(damaged).id}/confirm`, { qty: 1, reason_code: "Damaged" }),
          204
        )
        const counts = (yield* request("GET", "/counts?status=1")).body as ReadonlyArray<
          { loc_id: string; reason: string }
        >
        assert.deepStrictEqual(
          counts.filter((c) => c.loc_id.startsWith(sku)).map((c) => [c.loc_id, c.reason]),
          [[counted, `Short pick of task ${at(counted).id}`]]
        )
        yield* useSettings(request, {})
      }))

    it.effect("a bad reallocate or reason code is a 400 naming the field, and nothing is written", () =>
      Effect.gen(function*() {
        const request = yield* session
        const w = yield* shortPickWorld(request, [3], 3)
        const [task] = yield* w.tasks()
        assert.deepStrictEqual(
          answer(yield* request("POST", `/tasks/${task.id}/confirm`, { qty: 1, reason_code: "Lazy" })),
          [
            400,
            "Invalid field reason_code: must be one of Damaged, Mispick, Miscount, Found, Theft, Expired, Other, StockOut"
          ]
        )
        assert.deepStrictEqual(answer(yield* request("POST", `/tasks/${task.id}/confirm`, { reallocate: "yes" })), [
          400,
          "Invalid field reallocate: Expected boolean, actual \"yes\""
        ])
        assert.deepStrictEqual((yield* w.tasks()).map((t) => t.id), [task.id])
        assert.deepStrictEqual((yield* contentRows([w.sku])).map((c) => [c.qty, c.qty_allocated]), [[3, 3]])
      }))
  })
}
