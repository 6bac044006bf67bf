/**
 * Packing into shipping units (spec §4) through the real server, on SQLite: SSCCs from the site's
 * prefix, packed never above picked, nesting and weights, the packing list, ship by unit, and bad
 * input refused with nothing written. The SSCC counter and the lock on order lines are the
 * stores' own, in the contract suite.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { isValidSscc } from "@wms/core"
import { Effect, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"
import { insertSku } from "../../../testing/fixtures.js"
import { Api, type TestResponse, testServer } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { addStock, type Request, session, startedWave } from "./PickingWorld.js"

const server = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => testServer(`sqlite:${filename}`)))

const answer = (response: TestResponse) => [response.status, response.body?.message]

const packingOff: { gs1_company_prefix: string | null; sscc_extension_digit: number; pack_before_ship: boolean } = {
  gs1_company_prefix: null,
  sscc_extension_digit: 0,
  pack_before_ship: false
}

const useSettings = (request: Request, settings: Partial<typeof packingOff>) =>
  Effect.map(
    request("PUT", "/sites/main/settings", { ...packingOff, ...settings }),
    (response) => expectStatus(response, 204)
  )

/** A picked order of one line: `qty` of a SKU that weighs 1.5 each, all picked. */
const pickedOrder = (request: Request, qty: number) =>
  Effect.gen(function*() {
    const sku = yield* insertSku({ sku_id: unique("PK") })
    const sql = yield* SqlClient.SqlClient
    yield* Effect.orDie(sql`UPDATE skus SET each_weight = 1.5 WHERE sku_id = ${sku}`)
    yield* addStock(request, sku, `${sku}-L`, qty)
    const orderId = unique("PO")
    const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty }] }])
    const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<{ readonly id: number }>
    for (const task of tasks) expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`), 204)
    return { sku, orderId }
  })

/** The packing list as CSV: the test client's `Api` reads JSON only. */
const packingListCsv = (orderId: string) =>
  Effect.gen(function*() {
    const token = yield* (yield* Api).login()
    const response = yield* (yield* HttpClient.HttpClient).execute(
      HttpClientRequest.get(`/orders/${encodeURIComponent(orderId)}/packing-list`).pipe(
        HttpClientRequest.bearerToken(token),
        HttpClientRequest.setHeaders({ site: "main", accept: "text/csv" })
      )
    )
    return [response.status, response.headers["content-type"], yield* response.text] as const
  }).pipe(Effect.scoped, Effect.orDie)

layer(server, { timeout: 60_000 })("packing on sqlite", (it) => {
  it.effect("packs picked goods into cartons on a pallet with SSCCs and weights, and ships by unit", () =>
    Effect.gen(function*() {
      const request = yield* session
      yield* useSettings(request, {})
      const { orderId, sku } = yield* pickedOrder(request, 4)
      assert.deepStrictEqual(
        answer(yield* request("POST", "/shipping-units", { order_id: orderId, unit_type: "Carton" })),
        [409, "Site main has no gs1_company_prefix"]
      )
      yield* useSettings(request, { gs1_company_prefix: "0614141", sscc_extension_digit: 1, pack_before_ship: true })

      const pallet = yield* request("POST", "/shipping-units", {
        order_id: orderId,
        unit_type: "Pallet",
        tare_weight: 20
      })
      expectStatus(pallet, 201)
      assert.strictEqual(pallet.headers.location, `/shipping-units/${pallet.body.id}`)
      const carton = yield* request("POST", "/shipping-units", {
        order_id: orderId,
        unit_type: "Carton",
        parent_id: pallet.body.id,
        tare_weight: 0.5,
        lines: [{ order_line: 1, qty: 3 }]
      })
      expectStatus(carton, 201)
      const { creation_datetime, id, sscc, ...rest } = carton.body
      assert.match(creation_datetime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      assert.isTrue(isValidSscc(sscc) && sscc.startsWith("10614141"), sscc)
      assert.notStrictEqual(sscc, pallet.body.sscc)
      assert.deepStrictEqual(rest, {
        order_id: orderId,
        unit_type: "Carton",
        parent_id: pallet.body.id,
        status: "Open",
        status_id: 1,
        tare_weight: 0.5,
        weight: 5,
        length: null,
        width: null,
        height: null,
        tracking_number: null,
        created_by: rest.created_by,
        lines: [{ order_line: 1, sku_id: sku, qty: 3 }]
      })
      assert.deepStrictEqual(
        yield* request("GET", `/shipping-units/${id}`).pipe(Effect.map((r) => r.body)),
        carton.body
      )
      // The pallet weighs its tare and its carton.
      assert.strictEqual((yield* request("GET", `/shipping-units/${pallet.body.id}`)).body.weight, 25)

      // Packed never exceeds picked: 3 of 4 are in the carton.
      assert.deepStrictEqual(answer(yield* request("POST", `/shipping-units/${id}/lines`, { order_line: 1, qty: 2 })), [
        409,
        `Line 1 of order ${orderId} has 4 picked and 3 packed: 2 more exceeds what was picked`
      ])
      // pack_before_ship: one unit picked and not packed, then units not closed.
      assert.deepStrictEqual(answer(yield* request("POST", `/orders/${orderId}/ship`)), [
        409,
        `Order ${orderId} has 1 picked units not packed`
      ])
      expectStatus(yield* request("POST", `/shipping-units/${id}/lines`, { order_line: 1, qty: 1 }), 204)
      expectStatus(yield* request("POST", `/shipping-units/${id}/close`), 204)
      assert.deepStrictEqual(answer(yield* request("POST", `/shipping-units/${id}/lines`, { order_line: 1, qty: 1 })), [
        409,
        `Shipping unit ${id} is Complete: its contents cannot change`
      ])
      assert.deepStrictEqual(answer(yield* request("POST", `/orders/${orderId}/ship`)), [
        409,
        `Order ${orderId} has 1 shipping units not closed`
      ])
      expectStatus(
        yield* request("PUT", `/shipping-units/${pallet.body.id}`, { tracking_number: "1Z999", height: 120 }),
        204
      )
      expectStatus(yield* request("POST", `/shipping-units/${pallet.body.id}/close`), 204)

      const list = (yield* request("GET", `/orders/${orderId}/packing-list`)).body
      assert.deepStrictEqual(list.total_weight, 26.5)
      assert.deepStrictEqual(
        list.units.map((u: any) => [u.sscc, u.unit_type, u.parent_sscc, u.weight, u.tracking_number]),
        [
          [pallet.body.sscc, "Pallet", null, 26.5, "1Z999"],
          [sscc, "Carton", pallet.body.sscc, 6.5, null]
        ]
      )
      const [status, contentType, csv] = yield* packingListCsv(orderId)
      assert.deepStrictEqual([status, contentType], [200, "text/csv"])
      assert.strictEqual(
        csv,
        "order_id,sscc,unit_type,parent_sscc,status,tare_weight,weight,length,width,height,tracking_number," +
          "order_line,sku_id,qty\n" +
          `${orderId},${pallet.body.sscc},Pallet,,Complete,20,26.5,,,120,1Z999,,,\n` +
          `${orderId},${sscc},Carton,${pallet.body.sscc},Complete,0.5,6.5,,,,,1,${sku},4\n`
      )

      expectStatus(yield* request("POST", `/orders/${orderId}/ship`), 204)
      const shipped = (yield* request("GET", `/shipping-units?order_id=${encodeURIComponent(orderId)}`)).body
      assert.deepStrictEqual(shipped.map((u: any) => u.status_id), [19, 19])
      assert.deepStrictEqual(answer(yield* request("DELETE", `/shipping-units/${id}`)), [
        409,
        `Shipping unit ${id} is shipped`
      ])
      assert.deepStrictEqual(
        answer(yield* request("POST", "/shipping-units", { order_id: orderId, unit_type: "Carton" })),
        [
          409,
          `Order ${orderId} is shipped: its packing cannot change`
        ]
      )
      yield* useSettings(request, {})
    }))

  it.effect("refuses bad input with a 4xx naming the problem and writes nothing", () =>
    Effect.gen(function*() {
      const request = yield* session
      yield* useSettings(request, { gs1_company_prefix: "0614141" })
      const { orderId } = yield* pickedOrder(request, 2)
      const other = yield* pickedOrder(request, 1)
      const units = () => Effect.map(request("GET", `/shipping-units?order_id=${orderId}`), (r) => r.body.length)
      const create = (body: object) =>
        request("POST", "/shipping-units", { order_id: orderId, unit_type: "Carton", ...body })
      assert.deepStrictEqual(answer(yield* create({ sscc: "106141411234567898" })), [
        400,
        "Invalid field sscc: must be an SSCC of 18 digits with a valid check digit"
      ])
      expectStatus(yield* create({ sscc: "106141411234567897" }), 201)
      assert.deepStrictEqual(answer(yield* create({ sscc: "106141411234567897" })), [
        409,
        "SSCC 106141411234567897 is in use on the site"
      ])
      assert.deepStrictEqual(answer(yield* create({ lines: [{ order_line: 2, qty: 1 }] })), [
        400,
        `Invalid field lines.0.order_line: order ${orderId} has no line 2`
      ])
      assert.deepStrictEqual(answer(yield* create({ lines: [{ order_line: 1, qty: 3 }] })), [
        409,
        `Line 1 of order ${orderId} has 2 picked and 0 packed: 3 more exceeds what was picked`
      ])
      const foreign = yield* request("POST", "/shipping-units", { order_id: other.orderId, unit_type: "Pallet" })
      expectStatus(foreign, 201)
      assert.deepStrictEqual(answer(yield* create({ parent_id: foreign.body.id })), [
        400,
        `Invalid field parent_id: shipping unit ${foreign.body.id} is of order ${other.orderId}, not ${orderId}`
      ])
      const box = yield* create({ unit_type: "Box" })
      assert.strictEqual(box.status, 400)
      assert.match(box.body.message, /^Invalid field unit_type: /)
      assert.strictEqual(yield* units(), 1)
      assert.deepStrictEqual(answer(yield* request("GET", "/shipping-units/999999")), [
        404,
        "Shipping unit 999999 not found"
      ])
      assert.deepStrictEqual(answer(yield* request("GET", "/orders/NOPE/packing-list")), [
        404,
        "Order with OrderID NOPE not found"
      ])
      yield* useSettings(request, {})
    }))
})
