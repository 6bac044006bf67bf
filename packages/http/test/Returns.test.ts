/**
 * Customer returns (spec §2) through the real server, on SQLite: a return authorized against a
 * shipped order, received with its dispositions into stock with `Return` ledger rows, its status
 * flow, close and cancel, the `return_received` event, putaway of restocked goods, and bad input
 * refused with nothing written. The lock on order lines under which R2 holds across processes is
 * the stores' own, in the contract suite and the PostgreSQL storm.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"
import { insertSku } from "../../../testing/fixtures.js"
import { Api, type TestResponse, testServer } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { ledgerRows, type Request, session, startedWave } from "./PickingWorld.js"

const server = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => testServer(`sqlite:${filename}`)))

const answer = (response: TestResponse) => [response.status, response.body?.message]

/** A shipped order of one line: `qty` of a fresh SKU, all picked from stock expiring 2031-06-30. */
const shippedOrder = (request: Request, qty: number) =>
  Effect.gen(function*() {
    const sku = yield* insertSku({ sku_id: unique("RT"), expiry_days: 30 })
    expectStatus(
      yield* request("POST", "/inventory/adjustments", {
        sku_id: sku,
        loc_id: `${sku}-L`,
        tag_id: `${sku}-T`,
        expiry_date: "2031-06-30",
        qty
      }),
      204
    )
    const orderId = unique("SO")
    const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty }] }])
    const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<{ readonly id: number }>
    for (const task of tasks) expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`), 204)
    expectStatus(yield* request("POST", `/orders/${orderId}/ship`), 204)
    return { sku, orderId }
  })

const tables = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ returns: number; lines: number; contents: number; ledger: number; events: number }>`
    SELECT (SELECT CAST(count(*) AS INTEGER) FROM returns) AS returns,
      (SELECT CAST(sum(qty_restocked + qty_quarantined + qty_scrapped) AS INTEGER) FROM return_lines) AS lines,
      (SELECT CAST(count(*) AS INTEGER) FROM contents) AS contents,
      (SELECT CAST(count(*) AS INTEGER) FROM inventory_transactions) AS ledger,
      (SELECT CAST(count(*) AS INTEGER) FROM events) AS events`
  return row
}).pipe(Effect.orDie)

const eventsOf = (type: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ data: string }>`SELECT data FROM events WHERE event_type = ${type} ORDER BY id`
    return rows.map((row) => JSON.parse(row.data))
  }).pipe(Effect.orDie)

const line = (fields: Record<string, unknown>) => ({
  qty_received: 0,
  qty_restocked: 0,
  qty_quarantined: 0,
  qty_scrapped: 0,
  ...fields
})

/** A file of `GET /export/returns` as text: the test client's `Api` reads JSON only. */
const exported = (format: "csv" | "ndjson") =>
  Effect.gen(function*() {
    const token = yield* (yield* Api).login()
    const response = yield* (yield* HttpClient.HttpClient).execute(
      HttpClientRequest.get(`/export/returns?format=${format}`).pipe(
        HttpClientRequest.bearerToken(token),
        HttpClientRequest.setHeaders({ site: "main" })
      )
    )
    return yield* response.text
  }).pipe(Effect.scoped, Effect.orDie)

layer(server, { timeout: 60_000 })("returns on sqlite", (it) => {
  it.effect("authorizes a return of a shipped order, receives it by disposition into stock, to Received", () =>
    Effect.gen(function*() {
      const request = yield* session
      const { orderId, sku } = yield* shippedOrder(request, 5)
      const order = (yield* request("GET", `/orders/${orderId}`)).body
      const created = yield* request("POST", "/returns", {
        order_id: orderId,
        reason_code: "Damaged",
        notes: "Box crushed",
        lines: [{ order_line: 1, qty: 3 }]
      })
      expectStatus(created, 201)
      const rma = created.body
      assert.match(rma.return_id, /^R\d{8}$/)
      assert.strictEqual(created.headers.location, `/returns/${rma.return_id}`)
      assert.deepStrictEqual({ ...rma, creation_datetime: "" }, {
        return_id: rma.return_id,
        order_id: orderId,
        customer_id: order.customer.id,
        reason_code: "Damaged",
        notes: "Box crushed",
        status: "Open",
        status_id: 1,
        created_by: rma.created_by,
        creation_datetime: "",
        lines: [line({ line: 1, order_line: 1, sku_id: sku, qty_authorized: 3 })]
      })
      assert.match(rma.creation_datetime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      assert.deepStrictEqual((yield* request("GET", `/returns/${rma.return_id}`)).body, rma)
      const listed = yield* request("GET", `/returns?order_id=${orderId}&status_id=1&customer_id=${order.customer.id}`)
      assert.deepStrictEqual(listed.body, [rma])
      assert.deepStrictEqual((yield* request("GET", `/returns?order_id=${orderId}&status_id=2`)).body, [])

      // Two of the three come back: one restocked at RETURNS, one scrapped.
      const receipt = yield* request("POST", `/returns/${rma.return_id}/receive`, {
        lines: [{ line: 1, qty: 1, disposition: "Restock" }, { line: 1, qty: 1, disposition: "Scrap" }]
      })
      expectStatus(receipt, 204)
      const inReceipt = (yield* request("GET", `/returns/${rma.return_id}`)).body
      assert.deepStrictEqual([inReceipt.status, inReceipt.status_id, inReceipt.lines], [
        "In Receipt",
        2,
        [line({
          line: 1,
          order_line: 1,
          sku_id: sku,
          qty_authorized: 3,
          qty_received: 2,
          qty_restocked: 1,
          qty_scrapped: 1
        })]
      ])
      const stock = (yield* request("GET", "/inventory/overview")).body.filter((
        c: { sku_id: string; loc_id: string }
      ) => c.sku_id === sku && c.loc_id === "RETURNS")
      // The expiry is that of the stock the order line shipped.
      assert.deepStrictEqual(
        stock.map((c: Record<string, unknown>) => [c.qty, c.expiry_date]),
        [[1, "2031-06-30"]]
      )
      const returned = (yield* ledgerRows([sku])).filter((row) => row.transaction_type === "Return")
      assert.deepStrictEqual(returned, [{
        transaction_type: "Return",
        content_id: stock[0].content_id,
        qty: 1,
        order_id: orderId,
        line_id: 1,
        notes: `Return ${rma.return_id} line 1`
      }])
      // The last one, at a location of the caller's choosing, with its own tag and expiry.
      expectStatus(
        yield* request("POST", `/returns/${rma.return_id}/receive`, {
          lines: [{
            line: 1,
            qty: 1,
            disposition: "Restock",
            loc_id: "SHELF-R",
            tag_id: "RT-1",
            expiry_date: "2032-01-01"
          }]
        }),
        204
      )
      const received = (yield* request("GET", `/returns/${rma.return_id}`)).body
      assert.deepStrictEqual([received.status, received.status_id, received.lines[0].qty_received], ["Received", 3, 3])
      const shelf = (yield* request("GET", "/inventory/overview")).body.find((c: { loc_id: string }) =>
        c.loc_id === "SHELF-R"
      )
      assert.deepStrictEqual([shelf.sku_id, shelf.tag_id, shelf.expiry_date, shelf.qty], [sku, "RT-1", "2032-01-01", 1])
      // Each receipt raised return_received with the return as it then was.
      const events = (yield* eventsOf("return_received")).filter((e) => e.return_id === rma.return_id)
      assert.deepStrictEqual(events, [inReceipt, received])
      // Nothing more of the return may come, and it cannot be cancelled or closed now.
      assert.deepStrictEqual(
        answer(
          yield* request("POST", `/returns/${rma.return_id}/receive`, {
            lines: [{ line: 1, qty: 1, disposition: "Scrap" }]
          })
        ),
        [409, `Return ${rma.return_id} is Received`]
      )
      assert.deepStrictEqual(
        answer(yield* request("DELETE", `/returns/${rma.return_id}`)),
        [409, `Return ${rma.return_id} has receipts: close it instead`]
      )
      assert.deepStrictEqual(
        answer(yield* request("POST", `/returns/${rma.return_id}/close`)),
        [409, `Return ${rma.return_id} is Received`]
      )
    }))

  it.effect("never authorizes more than shipped; a cancel frees what it authorized, a close what it did not receive", () =>
    Effect.gen(function*() {
      const request = yield* session
      const { orderId } = yield* shippedOrder(request, 4)
      const create = (qty: number, returnId?: string) =>
        request("POST", "/returns", {
          ...(returnId === undefined ? {} : { return_id: returnId }),
          order_id: orderId,
          reason_code: "WrongSize",
          lines: [{ order_line: 1, qty }]
        })
      const first = yield* create(3, unique("RMA"))
      expectStatus(first, 201)
      assert.deepStrictEqual(
        answer(yield* create(2)),
        [409, `Return of 2 exceeds the 1 returnable of order ${orderId} line 1`]
      )
      // Two lines of one body for the same order line count together.
      const both = yield* request("POST", "/returns", {
        order_id: orderId,
        reason_code: "WrongSize",
        lines: [{ order_line: 1, qty: 1 }, { order_line: 1, qty: 1 }]
      })
      assert.deepStrictEqual(answer(both), [409, `Return of 2 exceeds the 1 returnable of order ${orderId} line 1`])
      assert.deepStrictEqual(
        answer(yield* create(1, first.body.return_id)),
        [409, `Return ${first.body.return_id} already exists`]
      )
      // Cancelled, the first authorizes nothing, but stays readable.
      expectStatus(yield* request("DELETE", `/returns/${first.body.return_id}`), 204)
      const cancelled = (yield* request("GET", `/returns/${first.body.return_id}`)).body
      assert.deepStrictEqual([cancelled.status, cancelled.status_id], ["Cancelled", 21])
      assert.deepStrictEqual(
        answer(yield* request("DELETE", `/returns/${first.body.return_id}`)),
        [409, `Return ${first.body.return_id} is Cancelled`]
      )
      const second = (yield* create(4)).body
      assert.deepStrictEqual(
        answer(yield* request("POST", `/returns/${second.return_id}/close`)),
        [409, `Return ${second.return_id} has nothing received: delete it instead`]
      )
      expectStatus(
        yield* request("POST", `/returns/${second.return_id}/receive`, {
          lines: [{ line: 1, qty: 1, disposition: "Scrap" }]
        }),
        204
      )
      // Closed, the second authorizes only the one it received: three may come back again.
      expectStatus(yield* request("POST", `/returns/${second.return_id}/close`), 204)
      const closed = (yield* request("GET", `/returns/${second.return_id}`)).body
      assert.deepStrictEqual([closed.status_id, closed.lines[0].qty_authorized, closed.lines[0].qty_received], [
        20,
        1,
        1
      ])
      assert.deepStrictEqual(
        answer(
          yield* request("POST", `/returns/${second.return_id}/receive`, {
            lines: [{ line: 1, qty: 1, disposition: "Scrap" }]
          })
        ),
        [409, `Return ${second.return_id} is Complete`]
      )
      assert.deepStrictEqual(
        answer(yield* create(4)),
        [409, `Return of 4 exceeds the 3 returnable of order ${orderId} line 1`]
      )
      expectStatus(yield* create(3), 201)
    }))

  it.effect("refuses bad input with a 4xx naming the problem, and writes nothing", () =>
    Effect.gen(function*() {
      const request = yield* session
      const { orderId } = yield* shippedOrder(request, 2)
      const unshipped = unique("SO")
      const sku = yield* insertSku({ sku_id: unique("RT") })
      expectStatus(yield* request("POST", "/orders", { order_id: unshipped, lines: [{ sku_id: sku, qty: 1 }] }), 204)
      const rma = (yield* request("POST", "/returns", {
        order_id: orderId,
        reason_code: "Refused",
        lines: [{ order_line: 1, qty: 2 }]
      })).body
      const before = yield* tables
      const create = (body: Record<string, unknown>) =>
        request("POST", "/returns", {
          order_id: orderId,
          reason_code: "Refused",
          lines: [{ order_line: 1, qty: 1 }],
          ...body
        })
      assert.deepStrictEqual(answer(yield* create({ order_id: "NOPE" })), [404, "Order with OrderID NOPE not found"])
      assert.deepStrictEqual(answer(yield* create({ order_id: unshipped })), [409, `Order ${unshipped} is not shipped`])
      assert.deepStrictEqual(
        answer(yield* create({ lines: [{ order_line: 9, qty: 1 }] })),
        [404, `Line 9 of order ${orderId} not found`]
      )
      assert.deepStrictEqual(
        answer(yield* create({ lines: [{ order_line: 1, qty: 0 }] })),
        [400, "Invalid field lines.0.qty: must be an integer of at least 1"]
      )
      assert.deepStrictEqual(
        answer(yield* create({ lines: [] })),
        [400, "Invalid field lines: must have at least one line"]
      )
      assert.deepStrictEqual(answer(yield* create({ reason_code: "" })), [
        400,
        "Invalid field reason_code: must be a non-empty text of at most 64 characters"
      ])
      assert.deepStrictEqual(
        answer(yield* create({})),
        [409, `Return of 1 exceeds the 0 returnable of order ${orderId} line 1`]
      )
      const receive = (lines: ReadonlyArray<Record<string, unknown>>, returnId = rma.return_id) =>
        request("POST", `/returns/${returnId}/receive`, { lines })
      assert.deepStrictEqual(
        answer(yield* receive([{ line: 1, qty: 1, disposition: "Restock" }], "NOPE")),
        [404, "Return NOPE not found"]
      )
      assert.deepStrictEqual(
        answer(
          yield* receive([{ line: 1, qty: 1, disposition: "Restock" }, { line: 1, qty: 2, disposition: "Scrap" }])
        ),
        [400, `Over-receipt of return ${rma.return_id} line 1`]
      )
      assert.deepStrictEqual(
        answer(yield* receive([{ line: 2, qty: 1, disposition: "Restock" }])),
        [400, `Invalid field lines.0.line: return ${rma.return_id} has no line 2`]
      )
      const unknown = yield* receive([{ line: 1, qty: 1, disposition: "Resell" }])
      assert.strictEqual(unknown.status, 400)
      assert.match(unknown.body.message, /^Invalid field lines\.0\.disposition: /)
      assert.deepStrictEqual(
        answer(yield* receive([{ line: 1, qty: 0, disposition: "Scrap" }])),
        [400, "Invalid field lines.0.qty: must be an integer of at least 1"]
      )
      const blocked = unique("BLK")
      expectStatus(
        yield* request("POST", "/locations", { loc_id: blocked, loc_type: "Storage", status: "Blocked In" }),
        201
      )
      assert.deepStrictEqual(
        answer(
          yield* receive([{ line: 1, qty: 1, disposition: "Scrap" }, {
            line: 1,
            qty: 1,
            disposition: "Restock",
            loc_id: blocked
          }])
        ),
        [409, `Location ${blocked} is Blocked In`]
      )
      assert.deepStrictEqual(answer(yield* request("POST", "/returns/NOPE/close")), [404, "Return NOPE not found"])
      assert.deepStrictEqual(answer(yield* request("DELETE", "/returns/NOPE")), [404, "Return NOPE not found"])
      assert.deepStrictEqual(yield* tables, before)
      assert.deepStrictEqual((yield* request("GET", `/returns/${rma.return_id}`)).body, rma)
    }))

  it.effect("quarantines returned goods under a content hold of reason Return, out of the putaway", () =>
    Effect.gen(function*() {
      const request = yield* session
      const { orderId, sku } = yield* shippedOrder(request, 3)
      expectStatus(yield* request("PUT", "/sites/main/settings", { putaway_on_receipt: true }), 204)
      const rma = (yield* request("POST", "/returns", {
        order_id: orderId,
        reason_code: "Damaged",
        lines: [{ order_line: 1, qty: 3 }]
      })).body
      const receipt = yield* request("POST", `/returns/${rma.return_id}/receive`, {
        lines: [{ line: 1, qty: 2, disposition: "Quarantine", tag_id: unique("Q") }]
      })
      expectStatus(yield* request("PUT", "/sites/main/settings", { putaway_on_receipt: false }), 204)
      // Nothing restocked, so nothing to put away.
      assert.deepStrictEqual([receipt.status, receipt.body], [200, { tasks: [], unplaced: [] }])
      const line = (yield* request("GET", `/returns/${rma.return_id}`)).body.lines[0]
      assert.deepStrictEqual([line.qty_received, line.qty_quarantined, line.qty_restocked], [2, 2, 0])
      const content = (yield* request("GET", "/inventory/overview")).body.find((
        c: { sku_id: string; loc_id: string }
      ) => c.sku_id === sku && c.loc_id === "RETURNS")
      assert.deepStrictEqual([content.qty, content.held], [2, true])
      const holds = (yield* request("GET", "/holds?reason_code=Return")).body.filter((h: { content_id: number }) =>
        h.content_id === content.content_id
      )
      assert.deepStrictEqual(holds.map((h: Record<string, unknown>) => [h.status_id, h.notes, h.qty_covered]), [
        [24, `Return ${rma.return_id} line 1`, 2]
      ])
      assert.deepStrictEqual(content.holds, [holds[0].id])
      const rows = (yield* ledgerRows([sku])).filter((row) => row.content_id === content.content_id)
      assert.deepStrictEqual(rows.map((row) => [row.transaction_type, row.qty, row.notes]), [
        ["Return", 2, `Return ${rma.return_id} line 1`],
        ["Hold", 2, `Hold ${holds[0].id}`]
      ])
      // Held, it is not put away and not allocated until the hold is released.
      assert.strictEqual(
        (yield* request("POST", "/putaway-tasks", { content_id: content.content_id })).status,
        409
      )
    }))

  it.effect("with putaway_on_receipt, restocked goods at RETURNS get their putaway tasks: 200 {tasks, unplaced}", () =>
    Effect.gen(function*() {
      const request = yield* session
      const { orderId, sku } = yield* shippedOrder(request, 2)
      const store = unique("ST")
      expectStatus(yield* request("POST", "/locations", { loc_id: store, loc_type: "Storage" }), 201)
      expectStatus(yield* request("PUT", "/sites/main/settings", { putaway_on_receipt: true }), 204)
      const rma = (yield* request("POST", "/returns", {
        order_id: orderId,
        reason_code: "Damaged",
        lines: [{ order_line: 1, qty: 2 }]
      })).body
      const receipt = yield* request("POST", `/returns/${rma.return_id}/receive`, {
        lines: [{ line: 1, qty: 1, disposition: "Restock" }, { line: 1, qty: 1, disposition: "Scrap" }]
      })
      expectStatus(yield* request("PUT", "/sites/main/settings", { putaway_on_receipt: false }), 204)
      expectStatus(receipt, 200)
      assert.strictEqual(receipt.body.tasks.length, 1)
      const task = (yield* request("GET", `/movement-tasks/${receipt.body.tasks[0]}`)).body
      assert.deepStrictEqual([task.task_type, task.sku_id, task.from_loc_id, task.quantity], [
        "Putaway",
        sku,
        "RETURNS",
        1
      ])
    }))

  it.effect("imports returns as POST /returns authorizes them, a CSV row per line, and exports them as GET shows them", () =>
    Effect.gen(function*() {
      const request = yield* session
      const api = yield* Api
      const token = yield* api.login()
      const { orderId } = yield* shippedOrder(request, 4)
      const rma = unique("RMA")
      const file = [
        "return_id,order_id,reason_code,notes,lines.order_line,lines.qty",
        `${rma},${orderId},Damaged,Two boxes,1,1`,
        `${rma},${orderId},Damaged,Two boxes,1,1`,
        `,${orderId},Refused,,1,1`,
        `${rma}-X,${orderId},Damaged,,1,2`
      ].join("\n")
      const report = yield* api.request("POST", "/import/returns", {
        token,
        site: "main",
        rawBody: `${file}\n`,
        contentType: "text/csv"
      })
      assert.deepStrictEqual([report.status, report.body], [200, {
        rows: 4,
        written: 3,
        failed: 1,
        errors: [{ row: 5, field: null, message: `Return of 2 exceeds the 1 returnable of order ${orderId} line 1` }]
      }])
      const listed = (yield* request("GET", `/returns?order_id=${orderId}`)).body as ReadonlyArray<
        { readonly return_id: string; readonly notes: string | null; readonly lines: ReadonlyArray<unknown> }
      >
      assert.deepStrictEqual(listed.map((r) => [r.return_id === rma, r.notes, r.lines.length]), [
        [true, "Two boxes", 2],
        [false, null, 1]
      ])
      assert.match(listed[1].return_id, /^R\d{8}$/)
      const ndjson = (yield* exported("ndjson")).trim().split("\n").map((line) => JSON.parse(line))
      assert.deepStrictEqual(ndjson.filter((r) => r.order_id === orderId), [...listed])
      const [header, ...rows] = (yield* exported("csv")).trim().split("\n")
      assert.strictEqual(
        header,
        "return_id,order_id,customer_id,reason_code,notes,status,status_id,created_by,creation_datetime,lines.line," +
          "lines.order_line,lines.sku_id,lines.qty_authorized,lines.qty_received,lines.qty_restocked," +
          "lines.qty_quarantined,lines.qty_scrapped"
      )
      assert.strictEqual(rows.filter((row) => row.startsWith(`${rma},`)).length, 2)
    }))
})
