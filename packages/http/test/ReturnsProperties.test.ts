/**
 * The property of returns (spec §5) through the real server, on SQLite: over any interleaving of
 * returns, receipts, closes and cancels of one shipped order, what the returns authorize never
 * exceeds what shipped per order line, what a return line receives never exceeds what it
 * authorizes, statuses follow the lines, the `Return` rows bring in what was restocked
 * (`checkReturns` of `@wms/core/testing`), and the ledger still replays to the stock
 * (`checkLedger`). No request answers 500.
 */
import type { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import {
  checkLedger,
  checkReturns,
  checkStock,
  type ContentView,
  type OrderView,
  type ReturnView,
  type TransactionView
} from "@wms/core/testing"
import { Effect, Layer, Runtime } from "effect"
import fc from "fast-check"
import { freshSqliteFile } from "../../../testing/databases.js"
import { insertSku } from "../../../testing/fixtures.js"
import { propertyRuns } from "../../../testing/properties.js"
import { testServer } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { addStock, type Request, session, startedWave } from "./PickingWorld.js"

const server = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => testServer(`sqlite:${filename}`)))

const orderLine = fc.integer({ min: 1, max: 2 })
const index = fc.nat({ max: 7 })

const operation = fc.oneof(
  fc.record({
    kind: fc.constant("create" as const),
    lines: fc.array(fc.record({ order_line: orderLine, qty: fc.integer({ min: 1, max: 4 }) }), {
      minLength: 1,
      maxLength: 2
    })
  }),
  fc.record({
    kind: fc.constant("receive" as const),
    rma: index,
    lines: fc.array(
      fc.record({
        line: fc.integer({ min: 1, max: 2 }),
        qty: fc.integer({ min: 1, max: 3 }),
        disposition: fc.constantFrom("Restock", "Quarantine", "Scrap")
      }),
      { minLength: 1, maxLength: 2 }
    )
  }),
  fc.record({ kind: fc.constant("close" as const), rma: index }),
  fc.record({ kind: fc.constant("cancel" as const), rma: index })
)
type Operation = typeof operation extends fc.Arbitrary<infer A> ? A : never

/** A shipped order of two lines, 4 and 3 of two SKUs. */
const shippedOrder = (request: Request) =>
  Effect.gen(function*() {
    const skus = [yield* insertSku({ sku_id: unique("RP") }), yield* insertSku({ sku_id: unique("RP") })]
    for (const sku of skus) yield* addStock(request, sku, `${sku}-L`, 10)
    const orderId = unique("RPO")
    const waveId = yield* startedWave(request, [{
      order_id: orderId,
      lines: [{ sku_id: skus[0], qty: 4 }, { sku_id: skus[1], qty: 3 }]
    }])
    const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<{ readonly id: number }>
    for (const task of tasks) expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`), 204)
    expectStatus(yield* request("POST", `/orders/${orderId}/ship`), 204)
    return { orderId, skus }
  })

/** Plays the operations on a new shipped order; yields the violations of its returns and stock, and any 5xx. */
const play = (request: Request, operations: ReadonlyArray<Operation>) =>
  Effect.gen(function*() {
    const { orderId, skus } = yield* shippedOrder(request)
    const made: Array<string> = []
    const at = (i: number) => made[i % Math.max(made.length, 1)] ?? "NONE"
    const failures: Array<string> = []
    for (const op of operations) {
      const answer = op.kind === "create"
        ? yield* request("POST", "/returns", { order_id: orderId, reason_code: "Damaged", lines: op.lines })
        : op.kind === "receive"
        ? yield* request("POST", `/returns/${at(op.rma)}/receive`, { lines: op.lines })
        : op.kind === "close"
        ? yield* request("POST", `/returns/${at(op.rma)}/close`)
        : yield* request("DELETE", `/returns/${at(op.rma)}`)
      if (op.kind === "create" && answer.status === 201) made.push(answer.body.return_id)
      if (answer.status >= 500) failures.push(`${JSON.stringify(op)} → ${answer.status}`)
    }
    const order = (yield* request("GET", `/orders/${orderId}`)).body as OrderView
    const returns = (yield* request("GET", `/returns?order_id=${orderId}`)).body as ReadonlyArray<ReturnView>
    const ofSkus = <A extends { readonly sku_id: string }>(rows: ReadonlyArray<A>) =>
      rows.filter((row) => skus.includes(row.sku_id))
    const contents = ofSkus((yield* request("GET", "/inventory/overview")).body as ReadonlyArray<ContentView>)
    const ledger = ofSkus(
      (yield* request("GET", "/inventory/transactions")).body as ReadonlyArray<TransactionView & { sku_id: string }>
    )
    return [
      ...failures,
      ...checkReturns(order, returns, ledger),
      ...checkStock(contents),
      ...checkLedger(contents, ledger)
    ]
  })

layer(server, { timeout: 120_000 })("returns properties on sqlite", (it) => {
  it.effect("authorized stays within shipped, received within authorized, and the ledger replays to the stock", () =>
    Effect.gen(function*() {
      const request = yield* session
      const runtime = yield* Effect.runtime<SqlClient.SqlClient>()
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 14 }), (operations) =>
            Runtime.runPromise(runtime)(
              Effect.map(play(request, operations), (violations) =>
                assert.deepStrictEqual(violations, []))
            )),
          { numRuns: propertyRuns(10) }
        )
      )
    }))
})
