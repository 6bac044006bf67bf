/**
 * Transfers between sites (spec §3) through the real server, on SQLite: a transfer order and its
 * checks, its shipment into the destination's In Transit pre-advice, receipts with the shipped tag
 * and expiry and never more than shipped, the short-close, the delete rules, the in-transit list,
 * and the events at both sites. What the store itself does is in the contract suite.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"
import { insertCustomer, insertSku } from "../../../testing/fixtures.js"
import { Api, type TestResponse, testServer } from "../../../testing/server.js"
import { callerFor, expectStatus, makeFulfillmentSite, unique } from "../../../testing/world.js"
import { ledgerRows, session } from "./PickingWorld.js"
import { destinationSite, pickOrder, shippedTransfer, skuOnSites, stockAt } from "./TransferWorld.js"

const server = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => testServer(`sqlite:${filename}`)))

const answer = (response: TestResponse) => [response.status, response.body?.message]

const eventsOf = (type: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ site_id: string; data: string }>`SELECT site_id, data FROM events
      WHERE event_type = ${type} ORDER BY id`
    return rows.map((row) => ({ site_id: row.site_id, data: JSON.parse(row.data) }))
  }).pipe(Effect.orDie)

/** The contents of a SKU on a site as `[loc_id, tag_id, expiry_date, qty]`, straight from the database. */
const stockOf = (site: string, sku: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ loc_id: string; tag_id: string; expiry_date: string | null; qty: number }>`
      SELECT loc_id, tag_id, expiry_date, qty FROM contents
      WHERE site_id = ${site} AND sku_id = ${sku} AND qty > 0 ORDER BY content_id`
    return rows.map((row) => [row.loc_id, row.tag_id, row.expiry_date, row.qty])
  }).pipe(Effect.orDie)

layer(server, { timeout: 120_000 })("transfers on sqlite", (it) => {
  it.effect("ships a transfer into the destination's In Transit pre-advice and receives it with its tag and expiry", () =>
    Effect.gen(function*() {
      const request = yield* session
      const north = yield* destinationSite(request)
      const sku = yield* skuOnSites([north])
      yield* stockAt(request, { sku_id: sku, loc_id: "A-1", tag_id: `${sku}-L1`, qty: 5, expiry_date: "2031-01-31" })
      yield* stockAt(request, { sku_id: sku, loc_id: "A-2", tag_id: `${sku}-L2`, qty: 5, expiry_date: "2031-06-30" })

      const orderId = unique("T")
      expectStatus(
        yield* request("POST", "/orders", { order_id: orderId, to_site: north, lines: [{ sku_id: sku, qty: 8 }] }),
        204
      )
      const order = (yield* request("GET", `/orders/${orderId}`)).body
      assert.deepStrictEqual([order.order_type, order.to_site, order.customer], ["Transfer", north, null])
      const listed = (yield* request("GET", "/orders")).body as ReadonlyArray<{ order_id: string; order_type: string }>
      assert.deepStrictEqual(listed.find((o) => o.order_id === orderId)?.order_type, "Transfer")

      yield* pickOrder(request, orderId)
      // On hand at main: 2 left; picked stock left its content.
      assert.deepStrictEqual(yield* stockOf("main", sku), [["A-2", `${sku}-L2`, "2031-06-30", 2]])
      expectStatus(yield* request("POST", `/orders/${orderId}/ship`), 204)

      const shipped = (yield* request("GET", `/orders/${orderId}`)).body
      assert.deepStrictEqual([shipped.order_status.id, shipped.lines[0].qty_shipped], [19, 8])
      const ledger = (yield* ledgerRows([sku])).filter((row) => row.order_id === orderId)
      assert.deepStrictEqual(
        ledger.filter((row) => row.transaction_type !== "Allocate" && row.transaction_type !== "Pick")
          .map((row) => [row.transaction_type, row.qty, row.notes]),
        [["TransferOut", 5, `Transfer ${orderId}`], ["TransferOut", 3, `Transfer ${orderId}`]]
      )

      // The destination's pre-advice, In Transit, a line per shipped content with its tag and expiry.
      const preAdviceId = `TR-main-${orderId}`
      const preAdvice = (yield* request("GET", `/preadvices/${preAdviceId}`, undefined, north)).body
      assert.deepStrictEqual(
        {
          status: preAdvice.pre_advice_status,
          supplier: preAdvice.supplier,
          client_id: preAdvice.client_id,
          transfer: [preAdvice.transfer_order_id, preAdvice.from_site, preAdvice.reason_code]
        },
        {
          status: { id: 26, description: "In Transit" },
          supplier: null,
          client_id: null,
          transfer: [orderId, "main", null]
        }
      )
      assert.deepStrictEqual(
        preAdvice.lines.map((
          l: Record<string, unknown>
        ) => [l.line, l.sku_id, l.qty, l.tag_id, l.expiry_date, l.qty_lost]),
        [[1, sku, 5, `${sku}-L1`, "2031-01-31", 0], [2, sku, 3, `${sku}-L2`, "2031-06-30", 0]]
      )
      // The pre-advice list item keeps exactly its documented keys.
      const item = ((yield* request("GET", "/preadvices", undefined, north)).body as ReadonlyArray<
        Record<string, unknown>
      >).find((p) => p.pre_advice_id === preAdviceId)!
      assert.deepStrictEqual(Object.keys(item).sort(), [
        "client_id",
        "created_by",
        "creation_datetime",
        "id",
        "pre_advice_id",
        "pre_advice_status",
        "pre_advice_status_description",
        "supplier",
        "supplier_id"
      ])

      // In transit from either end; on neither site's stock.
      const inTransit = (site: string) =>
        Effect.map(
          request("GET", "/transfers/in-transit", undefined, site),
          (r) =>
            (r.body as ReadonlyArray<Record<string, unknown>>).filter((l) => l.order_id === orderId).map((l) => [
              l.pre_advice_id,
              l.from_site,
              l.to_site,
              l.line,
              l.tag_id,
              l.qty_shipped,
              l.qty_received,
              l.qty_in_transit
            ])
        )
      const expected = [
        [preAdviceId, "main", north, 1, `${sku}-L1`, 5, 0, 5],
        [preAdviceId, "main", north, 2, `${sku}-L2`, 3, 0, 3]
      ]
      assert.deepStrictEqual(yield* inTransit("main"), expected)
      assert.deepStrictEqual(yield* inTransit(north), expected)
      assert.deepStrictEqual(yield* stockOf(north, sku), [])

      // More than shipped is refused; a partial receipt keeps the tag and expiry unless it names others.
      assert.deepStrictEqual(
        answer(yield* request("POST", `/preadvices/${preAdviceId}/receive`, { lines: [{ line: 2, qty: 4 }] }, north)),
        [400, "Invalid field lines.0.qty: receiving 4 of line 2 exceeds the 3 still expected"]
      )
      expectStatus(
        yield* request("POST", `/preadvices/${preAdviceId}/receive`, {
          lines: [{ line: 1, qty: 2 }, { line: 2, qty: 3, tag_id: "NEW-TAG", expiry_date: "2032-01-01" }]
        }, north),
        204
      )
      assert.deepStrictEqual(
        (yield* request("GET", `/preadvices/${preAdviceId}`, undefined, north)).body.pre_advice_status.id,
        2
      )
      assert.deepStrictEqual(yield* inTransit(north), [[preAdviceId, "main", north, 1, `${sku}-L1`, 5, 2, 3]])
      expectStatus(yield* request("POST", `/preadvices/${preAdviceId}/receive`, {}, north), 204)
      assert.deepStrictEqual(
        (yield* request("GET", `/preadvices/${preAdviceId}`, undefined, north)).body.pre_advice_status.id,
        3
      )
      assert.deepStrictEqual(yield* inTransit(north), [])
      assert.deepStrictEqual(yield* stockOf(north, sku), [
        ["RECEIVING", `${sku}-L1`, "2031-01-31", 2],
        ["RECEIVING", "NEW-TAG", "2032-01-01", 3],
        ["RECEIVING", `${sku}-L1`, "2031-01-31", 3]
      ])
      const received = (yield* request("GET", "/inventory/transactions", undefined, north)).body as ReadonlyArray<
        Record<string, unknown>
      >
      assert.deepStrictEqual(
        received.filter((t) => t.sku_id === sku).map((t) => [t.transaction_type, t.qty, t.order_id, t.notes]),
        [2, 3, 3].map((qty) => ["TransferIn", qty, orderId, `Transfer ${orderId}`])
      )
      // Received in full, nothing is left to receive or to close, and it is never deleted.
      assert.deepStrictEqual(
        answer(yield* request("POST", `/preadvices/${preAdviceId}/close`, { reason_code: "Damaged" }, north)),
        [
          409,
          `PreAdvice with PreAdviceID ${preAdviceId} is Received: only an In Transit or In Receipt transfer can be closed`
        ]
      )
      assert.deepStrictEqual(answer(yield* request("DELETE", `/preadvices/${preAdviceId}`, undefined, north)), [
        409,
        `PreAdvice with PreAdviceID ${preAdviceId} came from a transfer and cannot be deleted; its close writes off what was not received`
      ])

      // Events: transfer_shipped at both sites with the order; transfer_received at both for each receipt.
      const shippedEvents = (yield* eventsOf("transfer_shipped")).filter((e) => e.data.order_id === orderId)
      assert.deepStrictEqual(shippedEvents.map((e) => e.site_id), ["main", north])
      assert.deepStrictEqual(shippedEvents[0].data.shipping_units, [])
      assert.deepStrictEqual((yield* eventsOf("order_shipped")).filter((e) => e.data.order_id === orderId), [])
      const receivedEvents = (yield* eventsOf("transfer_received")).filter((e) => e.data.pre_advice_id === preAdviceId)
      assert.deepStrictEqual(receivedEvents.map((e) => [e.site_id, e.data.pre_advice_status.id]), [
        [north, 2],
        ["main", 2],
        [north, 3],
        ["main", 3]
      ])
    }))

  it.effect("short-closes the rest with a reason: recorded on the lines, no stock anywhere, nothing more received", () =>
    Effect.gen(function*() {
      const request = yield* session
      const north = yield* destinationSite(request)
      const sku = yield* skuOnSites([north])
      yield* stockAt(request, { sku_id: sku, loc_id: "B-1", tag_id: `${sku}-L`, qty: 6 })
      const orderId = yield* shippedTransfer(request, north, [{ sku_id: sku, qty: 6 }])
      const preAdviceId = `TR-main-${orderId}`
      const close = (body: unknown, site = north) => request("POST", `/preadvices/${preAdviceId}/close`, body, site)

      assert.deepStrictEqual(answer(yield* close({})), [400, "Missing field reason_code"])
      assert.deepStrictEqual(answer(yield* close({ reason_code: "Lost" }))[0], 400)
      assert.deepStrictEqual(answer(yield* close({ reason_code: "Theft" }, "main")), [
        404,
        `PreAdvice with PreAdviceID ${preAdviceId} not found`
      ])
      expectStatus(
        yield* request("POST", `/preadvices/${preAdviceId}/receive`, { lines: [{ line: 1, qty: 4 }] }, north),
        204
      )
      expectStatus(yield* close({ reason_code: "Theft" }), 204)
      const closed = (yield* request("GET", `/preadvices/${preAdviceId}`, undefined, north)).body
      assert.deepStrictEqual(
        [
          closed.pre_advice_status,
          closed.reason_code,
          closed.lines.map((l: Record<string, unknown>) => [l.qty_received, l.qty_lost])
        ],
        [{ id: 20, description: "Complete" }, "Theft", [[4, 2]]]
      )
      assert.deepStrictEqual(
        answer(yield* request("POST", `/preadvices/${preAdviceId}/receive`, {}, north)),
        [409, `PreAdvice with PreAdviceID ${preAdviceId} has nothing left to receive`]
      )
      assert.deepStrictEqual(answer(yield* close({ reason_code: "Theft" })), [
        409,
        `PreAdvice with PreAdviceID ${preAdviceId} is Complete: only an In Transit or In Receipt transfer can be closed`
      ])
      assert.deepStrictEqual(yield* stockOf(north, sku), [["RECEIVING", `${sku}-L`, null, 4]])
      assert.deepStrictEqual(yield* stockOf("main", sku), [])
      const inTransit = (yield* request("GET", "/transfers/in-transit", undefined, north)).body as ReadonlyArray<
        { order_id: string }
      >
      assert.isFalse(inTransit.some((l) => l.order_id === orderId))

      // An ordinary pre-advice is no transfer to close.
      expectStatus(
        yield* request("POST", "/preadvices", { pre_advice_id: `PA-${orderId}`, lines: [{ sku_id: sku, qty: 1 }] }),
        204
      )
      assert.deepStrictEqual(
        answer(yield* request("POST", `/preadvices/PA-${orderId}/close`, { reason_code: "Other" })),
        [
          409,
          `PreAdvice with PreAdviceID PA-${orderId} was not made by a transfer: only a transfer's pre-advice can be closed`
        ]
      )
    }))

  it.effect("refuses a bad transfer order with a 4xx naming the problem, writing nothing", () =>
    Effect.gen(function*() {
      const request = yield* session
      const api = yield* Api
      const north = yield* destinationSite(request)
      const sku = yield* skuOnSites([north])
      const onlyHere = unique("HERE")
      yield* insertSku({ sku_id: onlyHere })
      const customer = yield* insertCustomer({ name: unique("Customer") })
      const fulfillment = yield* makeFulfillmentSite(yield* api.login())
      const create = (body: Record<string, unknown>, site = "main") =>
        Effect.gen(function*() {
          const orderId = unique("BAD")
          const response = yield* request("POST", "/orders", {
            order_id: orderId,
            lines: [{ sku_id: sku, qty: 1 }],
            ...body
          }, site)
          // Nothing written.
          assert.strictEqual((yield* request("GET", `/orders/${orderId}`, undefined, site)).status, 404)
          return answer(response)
        })

      assert.deepStrictEqual(yield* create({ to_site: north, customer_id: customer }), [
        400,
        "Invalid field to_site: a transfer goes to a site, not a customer: give to_site or customer_id"
      ])
      assert.deepStrictEqual(yield* create({ to_site: "main" }), [
        400,
        "Invalid field to_site: must be another site than the order's own, main"
      ])
      assert.deepStrictEqual(yield* create({ to_site: fulfillment.f1 }), [
        400,
        `Invalid field to_site: ${fulfillment.f1} is a client of site ${fulfillment.f}, not a site`
      ])
      assert.deepStrictEqual(yield* create({ to_site: "nowhere" }), [404, "Site with id nowhere not found"])
      assert.deepStrictEqual(yield* create({ to_site: north, lines: [{ sku_id: onlyHere, qty: 1 }] }), [
        409,
        `SKU ${onlyHere} does not exist at site ${north}, the transfer's destination`
      ])
      yield* insertSku({ site_id: fulfillment.f, client_id: fulfillment.f1, sku_id: sku })
      assert.deepStrictEqual(yield* create({ to_site: north }, fulfillment.f1), [
        409,
        `A transfer moves a site's own stock: it cannot be made in the scope of client ${fulfillment.f1}`
      ])

      // A user who is not an admin: 403.
      const admin = yield* callerFor(yield* api.login(), "main")
      const email = `${unique("user")}@example.com`
      expectStatus(
        yield* admin.post("/users", { email, name: "Planner", password: "password-1234", site: "main", admin: false }),
        204
      )
      const user = yield* callerFor(yield* api.login(email, "password-1234"), "main")
      const orderId = unique("BAD")
      assert.deepStrictEqual(
        answer(yield* user.post("/orders", { order_id: orderId, to_site: north, lines: [{ sku_id: sku, qty: 1 }] })),
        [403, "Admin rights required"]
      )
      assert.strictEqual((yield* request("GET", `/orders/${orderId}`)).status, 404)
    }))

  it.effect("keeps a transfer order's lines to SKUs of its destination, its customer empty, and deletes it before it ships", () =>
    Effect.gen(function*() {
      const request = yield* session
      const north = yield* destinationSite(request)
      const sku = yield* skuOnSites([north])
      const onlyHere = unique("HERE")
      yield* insertSku({ sku_id: onlyHere })
      const customer = yield* insertCustomer({ name: unique("Customer") })
      const orderId = unique("T")
      expectStatus(
        yield* request("POST", "/orders", { order_id: orderId, to_site: north, lines: [{ sku_id: sku, qty: 1 }] }),
        204
      )
      const missing = [409, `SKU ${onlyHere} does not exist at site ${north}, the transfer's destination`]
      assert.deepStrictEqual(
        answer(yield* request("POST", `/orders/${orderId}/lines`, { sku_id: onlyHere, qty: 1 })),
        missing
      )
      assert.deepStrictEqual(
        answer(yield* request("PUT", `/orders/${orderId}/lines/1`, { sku_id: onlyHere, qty: 1 })),
        missing
      )
      assert.deepStrictEqual(answer(yield* request("PUT", `/orders/${orderId}`, { customer_id: customer })), [
        400,
        `Invalid field customer_id: order ${orderId} is a transfer to site ${north}: it has no customer`
      ])
      // A customer order shows its type too.
      const customerOrder = unique("SO")
      expectStatus(yield* request("POST", "/orders", { order_id: customerOrder, customer_id: customer }), 204)
      const shown = (yield* request("GET", `/orders/${customerOrder}`)).body
      assert.deepStrictEqual([shown.order_type, shown.to_site], ["Customer", null])

      expectStatus(yield* request("DELETE", `/orders/${orderId}`), 204)
      yield* stockAt(request, { sku_id: sku, loc_id: "C-1", tag_id: `${sku}-L`, qty: 1 })
      const shipped = yield* shippedTransfer(request, north, [{ sku_id: sku, qty: 1 }])
      assert.deepStrictEqual(answer(yield* request("DELETE", `/orders/${shipped}`)), [
        409,
        `Order with OrderID ${shipped} is Shipped: it can be deleted only until picking starts`
      ])
    }))

  it.effect("packs a transfer into shipping units like any order: transfer_shipped carries them, Shipped", () =>
    Effect.gen(function*() {
      const request = yield* session
      const north = yield* destinationSite(request)
      const sku = yield* skuOnSites([north])
      yield* stockAt(request, { sku_id: sku, loc_id: "D-1", tag_id: `${sku}-L`, qty: 3 })
      const settings = (on: boolean) =>
        request("PUT", "/sites/main/settings", {
          gs1_company_prefix: on ? "0614141" : null,
          sscc_extension_digit: 0,
          pack_before_ship: on
        })
      expectStatus(yield* settings(true), 204)
      const orderId = unique("T")
      expectStatus(
        yield* request("POST", "/orders", { order_id: orderId, to_site: north, lines: [{ sku_id: sku, qty: 3 }] }),
        204
      )
      yield* pickOrder(request, orderId)
      assert.deepStrictEqual(answer(yield* request("POST", `/orders/${orderId}/ship`)), [
        409,
        `Order ${orderId} has 3 picked units not packed`
      ])
      const unit = yield* request("POST", "/shipping-units", {
        order_id: orderId,
        unit_type: "Pallet",
        lines: [{ order_line: 1, qty: 3 }]
      })
      expectStatus(unit, 201)
      expectStatus(yield* request("POST", `/shipping-units/${unit.body.id}/close`), 204)
      expectStatus(yield* request("POST", `/orders/${orderId}/ship`), 204)
      expectStatus(yield* settings(false), 204)
      const [event] = (yield* eventsOf("transfer_shipped")).filter((e) => e.data.order_id === orderId)
      assert.deepStrictEqual(
        event.data.shipping_units.map((u: Record<string, unknown>) => [u.sscc, u.unit_type]),
        [[unit.body.sscc, "Pallet"]]
      )
      assert.strictEqual((yield* request("GET", `/shipping-units/${unit.body.id}`)).body.status_id, 19)
      const preAdvice = (yield* request("GET", `/preadvices/TR-main-${orderId}`, undefined, north)).body
      assert.deepStrictEqual(preAdvice.lines.map((l: Record<string, unknown>) => [l.sku_id, l.qty]), [[sku, 3]])
    }))
})
