/**
 * What the picking tests share: an admin session on site `main`, and a started wave built through
 * the API (stock by adjustments, orders, a definition by customer name, create and start).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { insertCustomer } from "../../../testing/fixtures.js"
import { Api } from "../../../testing/server.js"
import { expectStatus, type Method, unique } from "../../../testing/world.js"

/** An admin session: `request` on site `main` (or `site`) with one token. */
export const session = Effect.gen(function*() {
  const api = yield* Api
  const token = yield* api.login()
  return (method: Method, path: string, body?: unknown, site = "main") =>
    api.request(method, path, { token, site, body })
})

export type Request = Effect.Effect.Success<typeof session>

export interface OrderSpec {
  readonly order_id: string
  readonly lines: ReadonlyArray<{ readonly sku_id: string; readonly qty: number }>
}

/** Creates the orders for a new customer, a wave of exactly them, and starts it; yields the wave id. */
export const startedWave = (request: Request, orders: ReadonlyArray<OrderSpec>, pickType: 1 | 2 | 3 | 4 = 1) =>
  Effect.gen(function*() {
    const customer = unique("Customer")
    const customerId = yield* insertCustomer({ name: customer })
    for (const order of orders) {
      expectStatus(yield* request("POST", "/orders", { ...order, customer_id: customerId }), 204)
    }
    const definitionBody = { description: customer, criterium_id: 1, value: customer, pick_type: pickType }
    expectStatus(yield* request("POST", "/wave-definitions", definitionBody), 204)
    const definitions = yield* request("GET", "/wave-definitions")
    const definition = definitions.body.find((d: { value: string }) => d.value === customer)
    const created = yield* request("POST", "/waves/create", { wavedef_id: definition.id })
    expectStatus(created, 200)
    const waveId = created.body.wave_id as number
    expectStatus(yield* request("POST", "/waves/start", { wave_id: waveId }), 200)
    return waveId
  })

/** Adds stock of a SKU at a location (a content per location and tag). */
export const addStock = (request: Request, sku_id: string, loc_id: string, qty: number) =>
  Effect.map(
    request("POST", "/inventory/adjustments", { sku_id, loc_id, tag_id: `${loc_id}-${sku_id}`, qty }),
    (response) => expectStatus(response, 204)
  )

/** A content's quantities, straight from the database. */
export const contentRows = (skuIds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ content_id: number; qty: number; qty_allocated: number; qty_tasked_from: number }>`
      SELECT content_id, qty, qty_allocated, qty_tasked_from FROM contents
      WHERE ${sql.in("sku_id", skuIds)} ORDER BY content_id`
  }).pipe(Effect.orDie)

/** The ledger of some SKUs, straight from the database. */
export const ledgerRows = (skuIds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{
      transaction_type: string
      content_id: number
      qty: number
      order_id: string | null
      line_id: number | null
      notes: string | null
    }>`SELECT transaction_type, content_id, qty, order_id, line_id, notes FROM inventory_transactions
      WHERE ${sql.in("sku_id", skuIds)} ORDER BY id`
  }).pipe(Effect.orDie)
