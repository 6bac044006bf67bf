/**
 * Holds (spec §1) through the real server, on SQLite: held stock left out of waves and moves but to
 * Quarantine, the Hold and Release ledger rows and events, `deallocate`, stock entering a held
 * scope, release, and bad input refused with nothing written. What each store covers, and the
 * holds lock, are the stores' own, in the contract suite.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"
import { insertSku } from "../../../testing/fixtures.js"
import { type TestResponse, testServer } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { addStock, contentRows, type Request, session, startedWave } from "./PickingWorld.js"

const server = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => testServer(`sqlite:${filename}`)))

const answer = (response: TestResponse) => [response.status, response.body?.message]

/** The ledger rows of the SKUs a hold writes, and the others that matter here, in order. */
const holdRows = (skuId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ transaction_type: string; content_id: number; qty: number; notes: string | null }>`
      SELECT transaction_type, content_id, qty, notes FROM inventory_transactions
      WHERE sku_id = ${skuId} AND transaction_type IN ('Hold', 'Release', 'Deallocate', 'Lost', 'Untask')
      ORDER BY id`
  }).pipe(Effect.orDie)

const eventsOf = (type: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ data: string }>`SELECT data FROM events WHERE event_type = ${type} ORDER BY id`
    return rows.map((row) => JSON.parse(row.data) as { readonly id: number; readonly status_id: number })
  }).pipe(Effect.orDie)

/** The contents of a SKU that hold stock, by id. */
const contentsOf = (skuId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ content_id: number; loc_id: string; tag_id: string; qty: number }>`
      SELECT content_id, loc_id, tag_id, qty FROM contents WHERE sku_id = ${skuId} AND qty > 0 ORDER BY content_id`
  }).pipe(Effect.orDie)

/** The open pick tasks of a wave, as `[from_loc_id, quantity]`. */
const tasksOf = (request: Request, waveId: number) =>
  Effect.map(
    request("GET", `/tasks?wave_id=${waveId}`),
    (response) => response.body as ReadonlyArray<{ id: number; from_loc_id: string; quantity: number }>
  )

const picks = (tasks: ReadonlyArray<{ from_loc_id: string; quantity: number }>) =>
  tasks.map((task) => [task.from_loc_id, task.quantity])

layer(server, { timeout: 60_000 })("holds on sqlite", (it) => {
  it.effect("a lot hold keeps its stock out of a wave and of moves but to Quarantine, until it is released", () =>
    Effect.gen(function*() {
      const request = yield* session
      const sku = yield* insertSku({ sku_id: unique("HS") })
      yield* addStock(request, sku, "H-BAD", 4)
      yield* addStock(request, sku, "H-GOOD", 2)
      const quarantine = unique("Q")
      expectStatus(yield* request("POST", "/locations", { loc_id: quarantine, loc_type: "Quarantine" }), 201)
      const [bad, good] = yield* contentsOf(sku)

      const created = yield* request("POST", "/holds", {
        sku_id: sku,
        tag_id: bad.tag_id,
        reason_code: "Inspection",
        notes: "supplier complaint"
      })
      expectStatus(created, 201)
      const hold = created.body
      assert.strictEqual(created.headers.location, `/holds/${hold.id}`)
      assert.deepStrictEqual(
        { ...hold, creation_datetime: typeof hold.creation_datetime },
        {
          id: hold.id,
          client_id: null,
          sku_id: sku,
          tag_id: bad.tag_id,
          expiry_date: null,
          loc_id: null,
          content_id: null,
          reason_code: "Inspection",
          notes: "supplier complaint",
          status: "Active",
          status_id: 24,
          deallocate: false,
          created_by: hold.created_by,
          creation_datetime: "string",
          released_by: null,
          release_datetime: null,
          release_notes: null,
          qty_covered: 4
        }
      )
      assert.deepStrictEqual((yield* request("GET", `/holds/${hold.id}`)).body, hold)
      assert.deepStrictEqual(
        (yield* request("GET", `/holds?sku_id=${sku}`)).body.map((h: { id: number }) => h.id),
        [hold.id]
      )
      assert.deepStrictEqual(yield* holdRows(sku), [
        { transaction_type: "Hold", content_id: bad.content_id, qty: 4, notes: `Hold ${hold.id}` }
      ])
      assert.include((yield* eventsOf("hold_created")).map((event) => event.id), hold.id)

      // H1: a wave takes only the free stock; H3: held stock moves only to Quarantine.
      const waveId = yield* startedWave(request, [{ order_id: unique("HO"), lines: [{ sku_id: sku, qty: 5 }] }])
      assert.deepStrictEqual(picks(yield* tasksOf(request, waveId)), [[good.loc_id, 2]])
      assert.deepStrictEqual(
        answer(yield* request("POST", "/movement-tasks", { content_id: bad.content_id, qty: 1, to_loc_id: "H-X" })),
        [409, `Content ${bad.content_id} is held by hold ${hold.id}: it may move only to a Quarantine location`]
      )
      const toQuarantine = yield* request("POST", "/movement-tasks", {
        content_id: bad.content_id,
        qty: 1,
        to_loc_id: quarantine
      })
      expectStatus(toQuarantine, 201)
      expectStatus(yield* request("POST", `/movement-tasks/${toQuarantine.body.id}/confirm`), 204)
      // The moved unit is of the held lot still; at Quarantine it is no source anyway.
      const moved = (yield* contentsOf(sku)).find((content) => content.loc_id === quarantine)!
      assert.strictEqual((yield* request("GET", `/holds/${hold.id}`)).body.qty_covered, 4)

      expectStatus(yield* request("POST", `/holds/${hold.id}/release`, { notes: "passed" }), 204)
      assert.deepStrictEqual(answer(yield* request("POST", `/holds/${hold.id}/release`)), [
        409,
        `Hold ${hold.id} is Released`
      ])
      const released = (yield* request("GET", `/holds/${hold.id}`)).body
      assert.deepStrictEqual([released.status, released.status_id, released.release_notes, released.qty_covered], [
        "Released",
        14,
        "passed",
        0
      ])
      assert.deepStrictEqual((yield* request("GET", `/holds?sku_id=${sku}`)).body, [])
      assert.deepStrictEqual(
        (yield* request("GET", `/holds?sku_id=${sku}&status_id=14`)).body.map((h: { id: number }) => h.id),
        [hold.id]
      )
      assert.deepStrictEqual((yield* holdRows(sku)).map((row) => [row.transaction_type, row.content_id, row.qty]), [
        ["Hold", bad.content_id, 4],
        // Stock entering the lot's scope (here: a new content at Quarantine) gets its Hold row as it enters.
        ["Hold", moved.content_id, 1],
        ["Release", bad.content_id, 3],
        ["Release", moved.content_id, 1]
      ])
      assert.include((yield* eventsOf("hold_released")).map((event) => event.id), hold.id)
      // Free again: a new wave takes it (the Quarantine unit stays out).
      const next = yield* startedWave(request, [{ order_id: unique("HO"), lines: [{ sku_id: sku, qty: 5 }] }])
      assert.deepStrictEqual(picks(yield* tasksOf(request, next)), [[bad.loc_id, 3]])
    }))

  it.effect("deallocate cancels the open picks on held stock as a whole short pick would, with nothing lost", () =>
    Effect.gen(function*() {
      const request = yield* session
      const sku = yield* insertSku({ sku_id: unique("HD") })
      yield* addStock(request, sku, "D-1", 3)
      const orderId = unique("DO")
      const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty: 3 }] }])
      const [task] = yield* tasksOf(request, waveId)
      const [held] = yield* contentsOf(sku)
      const created = yield* request("POST", "/holds", {
        content_id: held.content_id,
        reason_code: "Damaged",
        deallocate: true
      })
      expectStatus(created, 201)
      assert.deepStrictEqual(yield* tasksOf(request, waveId), [])
      assert.deepStrictEqual(yield* contentRows([sku]), [
        { content_id: held.content_id, qty: 3, qty_allocated: 0, qty_tasked_from: 0 }
      ])
      assert.deepStrictEqual(yield* holdRows(sku), [
        {
          transaction_type: "Deallocate",
          content_id: held.content_id,
          qty: 3,
          notes: `Hold ${created.body.id} of task ${task.id}`
        },
        { transaction_type: "Hold", content_id: held.content_id, qty: 3, notes: `Hold ${created.body.id}` }
      ])
      const order = (yield* request("GET", `/orders/${orderId}`)).body
      assert.deepStrictEqual(order.order_status, { id: 14, description: "Released" })
      assert.deepStrictEqual(
        (yield* request("GET", "/inventory/lostandfound")).body.filter((item: { sku_id: string }) =>
          item.sku_id === sku
        ),
        []
      )
      // Without deallocate, the picks made proceed.
      const other = yield* insertSku({ sku_id: unique("HP") })
      yield* addStock(request, other, "D-2", 2)
      const kept = yield* startedWave(request, [{ order_id: unique("DO"), lines: [{ sku_id: other, qty: 2 }] }])
      const [open] = yield* tasksOf(request, kept)
      const [otherContent] = yield* contentsOf(other)
      expectStatus(
        yield* request("POST", "/holds", { content_id: otherContent.content_id, reason_code: "Damaged" }),
        201
      )
      assert.deepStrictEqual((yield* tasksOf(request, kept)).map((t) => t.id), [open.id])
      expectStatus(yield* request("POST", `/tasks/${open.id}/confirm`), 204)
    }))

  it.effect("a location hold covers stock that enters the place later, and a SKU hold stock added later", () =>
    Effect.gen(function*() {
      const request = yield* session
      const sku = yield* insertSku({ sku_id: unique("HL") })
      const place = unique("PL")
      const hold = yield* request("POST", "/holds", { loc_id: place, reason_code: "Leak" })
      expectStatus(hold, 201)
      assert.strictEqual(hold.body.qty_covered, 0)
      yield* addStock(request, sku, place, 2)
      assert.strictEqual((yield* request("GET", `/holds/${hold.body.id}`)).body.qty_covered, 2)
      const [content] = yield* contentsOf(sku)
      // H6: the overview shows who holds it, and filters on it.
      const shown = (yield* request("GET", `/inventory/overview/${content.content_id}`)).body
      assert.deepStrictEqual([shown.held, shown.holds], [true, [hold.body.id]])
      const ids = (held: string) =>
        Effect.map(
          request("GET", `/inventory/overview?held=${held}`),
          (response) => response.body.map((row: { content_id: number }) => row.content_id)
        )
      assert.include(yield* ids("true"), content.content_id)
      assert.notInclude(yield* ids("false"), content.content_id)
      assert.strictEqual((yield* request("GET", "/inventory/overview?held=maybe")).status, 400)
      assert.deepStrictEqual(
        answer(yield* request("POST", `/locations/${place}/move-all`, { to_loc_id: "ELSEWHERE" })),
        [
          409,
          `Content ${content.content_id} is held by hold ${hold.body.id}: it may move only to a Quarantine location`
        ]
      )
      const waveId = yield* startedWave(request, [{ order_id: unique("LO"), lines: [{ sku_id: sku, qty: 1 }] }])
      assert.deepStrictEqual(yield* tasksOf(request, waveId), [])
    }))

  it.effect("stock an adjustment or a count brings into an empty content of a held place gets its Hold rows", () =>
    Effect.gen(function*() {
      const request = yield* session
      const sku = yield* insertSku({ sku_id: unique("HC") })
      const place = unique("HCL")
      expectStatus(yield* request("POST", "/locations", { loc_id: place, loc_type: "Storage", zone: "Z" }), 201)
      const hold = (yield* request("POST", "/holds", { loc_id: place, reason_code: "Leak" })).body.id as number
      yield* addStock(request, sku, place, 2)
      const count = yield* request("POST", "/counts", { loc_id: place })
      expectStatus(count, 201)
      expectStatus(yield* request("POST", `/counts/${count.body.id}/release`), 204)
      expectStatus(
        yield* request("POST", `/counts/${count.body.id}/record`, {
          lines: [{ sku_id: sku, tag_id: `${place}-${sku}`, qty_counted: 3 }, {
            sku_id: sku,
            tag_id: "F9",
            qty_counted: 4
          }]
        }),
        204
      )
      const [adjusted, found] = yield* contentsOf(sku)
      // The content counted up had its row when the adjustment filled it: none more.
      assert.deepStrictEqual(
        (yield* holdRows(sku)).map((row) => [row.transaction_type, row.content_id, row.qty, row.notes]),
        [
          ["Hold", adjusted.content_id, 2, `Hold ${hold}`],
          ["Hold", found.content_id, 4, `Hold ${hold}`]
        ]
      )
    }))

  it.effect("a recall holds the lot with deallocate and traces it: received = on hand + shipped, from the ledger", () =>
    Effect.gen(function*() {
      const request = yield* session
      const sku = yield* insertSku({ sku_id: unique("HR") })
      const preAdvice = unique("PA")
      expectStatus(
        yield* request("POST", "/preadvices", { pre_advice_id: preAdvice, lines: [{ sku_id: sku, qty: 10 }] }),
        204
      )
      const receive = (qty: number) =>
        Effect.map(
          request("POST", `/preadvices/${preAdvice}/receive`, {
            lines: [{ line: 1, qty, tag_id: "LOT-7", loc_id: unique("R") }],
            putaway: false
          }),
          (response) => expectStatus(response, 204)
        )
      yield* receive(6)
      const orderId = unique("RO")
      const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty: 2 }] }])
      const [pick] = yield* tasksOf(request, waveId)
      expectStatus(yield* request("POST", `/tasks/${pick.id}/confirm`), 204)
      expectStatus(yield* request("POST", `/orders/${orderId}/ship`), 204)
      // Picked for a second order, not yet shipped: the recall takes it back.
      const pending = yield* startedWave(request, [{ order_id: unique("RO"), lines: [{ sku_id: sku, qty: 1 }] }])
      assert.strictEqual((yield* tasksOf(request, pending)).length, 1)

      const recalled = yield* request("POST", "/recalls", { sku_id: sku, tag_id: "LOT-7", reason_code: "Recall" })
      expectStatus(recalled, 201)
      const { hold, trace } = recalled.body
      assert.strictEqual(recalled.headers.location, `/holds/${hold.id}`)
      assert.deepStrictEqual([hold.sku_id, hold.tag_id, hold.deallocate, hold.status_id], [sku, "LOT-7", true, 24])
      assert.deepStrictEqual(yield* tasksOf(request, pending), [])
      const order = (yield* request("GET", `/orders/${orderId}`)).body
      assert.deepStrictEqual(
        trace.shipped.map((
          row: { order_id: string; customer_id: number; line: number; qty: number }
        ) => [row.order_id, row.customer_id, row.line, row.qty]),
        [
          [orderId, order.customer.id, 1, 2]
        ]
      )
      assert.deepStrictEqual(
        trace.received.map((row: { pre_advice_id: string; qty: number }) => [row.pre_advice_id, row.qty]),
        [
          [preAdvice, 6]
        ]
      )
      assert.deepStrictEqual(
        trace.on_hand.map((
          row: { qty: number; qty_allocated: number; held: boolean }
        ) => [row.qty, row.qty_allocated, row.held]),
        [
          [4, 0, true]
        ]
      )
      // A receipt of the recalled lot is born held: its Hold row is written as it comes in.
      yield* receive(4)
      const again = (yield* request("GET", `/trace?sku_id=${sku}&tag_id=LOT-7`)).body
      const sum = (rows: ReadonlyArray<{ qty: number }>) => rows.reduce((total, row) => total + row.qty, 0)
      assert.deepStrictEqual([sum(again.received), sum(again.on_hand), sum(again.shipped)], [10, 8, 2])
      assert.isTrue(again.on_hand.every((row: { held: boolean }) => row.held))
      const newest = again.received[1].content_id
      assert.deepStrictEqual(
        (yield* holdRows(sku)).filter((row) => row.content_id === newest).map((
          row
        ) => [row.transaction_type, row.notes]),
        [["Hold", `Hold ${hold.id}`]]
      )
      const none = yield* startedWave(request, [{ order_id: unique("RO"), lines: [{ sku_id: sku, qty: 1 }] }])
      assert.deepStrictEqual(yield* tasksOf(request, none), [])
      assert.strictEqual((yield* request("GET", `/trace?sku_id=${unique("NOPE")}`)).status, 404)
      assert.strictEqual((yield* request("GET", "/trace")).status, 400)
    }))

  it.effect("bad input is a 4xx naming the problem, and writes no hold", () =>
    Effect.gen(function*() {
      const request = yield* session
      const sku = yield* insertSku({ sku_id: unique("HB") })
      const before = (yield* request("GET", "/holds")).body.length
      const refusals: ReadonlyArray<readonly [unknown, number, string]> = [
        [{ reason_code: "QA" }, 400, "Missing field content_id, sku_id or loc_id"],
        [
          { content_id: 1, sku_id: sku, reason_code: "QA" },
          400,
          "Invalid field content_id: cannot be combined with sku_id, tag_id, expiry_date or loc_id"
        ],
        [{ tag_id: "T", reason_code: "QA" }, 400, "Missing field content_id, sku_id or loc_id"],
        [{ loc_id: "X", expiry_date: "2031-01-01", reason_code: "QA" }, 400, "Missing field sku_id"],
        [{ content_id: 2147483647, reason_code: "QA" }, 404, "Inventory content with contentId 2147483647 not found"],
        [{ sku_id: unique("NOPE"), reason_code: "QA" }, 404, ""],
        [{ sku_id: sku, reason_code: "x".repeat(51) }, 400, "reason_code"],
        [{ sku_id: sku, reason_code: "QA", notes: "n".repeat(1001) }, 400, "notes"],
        [{ sku_id: sku }, 400, "reason_code"],
        [{ sku_id: sku, reason_code: "QA", expiry_date: "2030-02-30" }, 400, "expiry_date"]
      ]
      for (const [body, status, message] of refusals) {
        const response = yield* request("POST", "/holds", body)
        assert.strictEqual(response.status, status, JSON.stringify(body))
        assert.include(response.body.message, message, JSON.stringify(body))
      }
      assert.strictEqual((yield* request("GET", "/holds")).body.length, before)
      assert.deepStrictEqual(answer(yield* request("GET", "/holds/2147483647")), [404, "Hold 2147483647 not found"])
      assert.deepStrictEqual(answer(yield* request("POST", "/holds/2147483647/release")), [
        404,
        "Hold 2147483647 not found"
      ])
      assert.strictEqual((yield* request("GET", "/holds/abc")).status, 400)
    }))
})
