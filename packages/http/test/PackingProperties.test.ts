/**
 * The property of packing (spec §5) through the real server, on SQLite: for any sequence of
 * packs, line removals, unpacks, closes and ships, with `pack_before_ship` on or off, no order line
 * has more packed than picked, every SSCC is valid and unique, and a shipped order's units are all
 * Shipped and on its record (`checkPacking` of `@wms/core/testing`). No request answers 500.
 */
import type { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { checkPacking, type PackedOrderView, type ShippingUnitView } from "@wms/core/testing"
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
const qty = fc.integer({ min: 1, max: 4 })
const index = fc.nat({ max: 7 })

const operation = fc.oneof(
  fc.record({
    kind: fc.constant("create" as const),
    unit_type: fc.constantFrom("Carton", "Pallet"),
    parent: fc.option(index, { nil: undefined }),
    lines: fc.array(fc.record({ order_line: orderLine, qty }), { maxLength: 2 })
  }),
  fc.record({ kind: fc.constant("add" as const), unit: index, order_line: orderLine, qty }),
  fc.record({ kind: fc.constant("remove" as const), unit: index, order_line: orderLine }),
  fc.record({ kind: fc.constant("close" as const), unit: index }),
  fc.record({ kind: fc.constant("unpack" as const), unit: index }),
  fc.record({ kind: fc.constant("ship" as const) })
)
type Operation = typeof operation extends fc.Arbitrary<infer A> ? A : never

/** An order of two lines, 5 and 3 of two SKUs, all picked. */
const pickedOrder = (request: Request) =>
  Effect.gen(function*() {
    const skus = [yield* insertSku({ sku_id: unique("PP") }), yield* insertSku({ sku_id: unique("PP") })]
    for (const sku of skus) yield* addStock(request, sku, `${sku}-L`, 10)
    const orderId = unique("PPO")
    const waveId = yield* startedWave(request, [{
      order_id: orderId,
      lines: [{ sku_id: skus[0], qty: 5 }, { sku_id: skus[1], qty: 3 }]
    }])
    const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<{ readonly id: number }>
    for (const task of tasks) expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`), 204)
    return orderId
  })

/** Plays the operations on a new picked order; yields the violations of its packing and any 5xx. */
const play = (request: Request, packBeforeShip: boolean, operations: ReadonlyArray<Operation>) =>
  Effect.gen(function*() {
    expectStatus(
      yield* request("PUT", "/sites/main/settings", {
        gs1_company_prefix: "0614141",
        pack_before_ship: packBeforeShip
      }),
      204
    )
    const orderId = yield* pickedOrder(request)
    const made: Array<number> = []
    const at = (i: number) => made[i % Math.max(made.length, 1)] ?? 0
    const failures: Array<string> = []
    for (const op of operations) {
      const answer = op.kind === "create"
        ? yield* request("POST", "/shipping-units", {
          order_id: orderId,
          unit_type: op.unit_type,
          lines: op.lines,
          ...(op.parent === undefined || made.length === 0 ? {} : { parent_id: at(op.parent) })
        })
        : op.kind === "add"
        ? yield* request("POST", `/shipping-units/${at(op.unit)}/lines`, { order_line: op.order_line, qty: op.qty })
        : op.kind === "remove"
        ? yield* request("DELETE", `/shipping-units/${at(op.unit)}/lines/${op.order_line}`)
        : op.kind === "close"
        ? yield* request("POST", `/shipping-units/${at(op.unit)}/close`)
        : op.kind === "unpack"
        ? yield* request("DELETE", `/shipping-units/${at(op.unit)}`)
        : yield* request("POST", `/orders/${orderId}/ship`)
      if (op.kind === "create" && answer.status === 201) made.push(answer.body.id)
      if (answer.status >= 500) failures.push(`${JSON.stringify(op)} → ${answer.status}`)
    }
    const order = (yield* request("GET", `/orders/${orderId}`)).body as PackedOrderView
    const units = (yield* request("GET", `/shipping-units?order_id=${orderId}`)).body as ReadonlyArray<ShippingUnitView>
    return [...failures, ...checkPacking(order, units)]
  })

layer(server, { timeout: 120_000 })("packing properties on sqlite", (it) => {
  it.effect("packed never exceeds picked, SSCCs stay valid and unique, a shipped order's units are Shipped", () =>
    Effect.gen(function*() {
      const request = yield* session
      const runtime = yield* Effect.runtime<SqlClient.SqlClient>()
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.boolean(), fc.array(operation, { minLength: 1, maxLength: 14 }), (gate, operations) =>
            Runtime.runPromise(runtime)(
              Effect.map(play(request, gate, operations), (violations) =>
                assert.deepStrictEqual(violations, []))
            )),
          { numRuns: propertyRuns(12) }
        )
      )
      expectStatus(
        yield* request("PUT", "/sites/main/settings", { gs1_company_prefix: null, pack_before_ship: false }),
        204
      )
    }))
})
