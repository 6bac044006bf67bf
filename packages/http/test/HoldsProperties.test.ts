/**
 * The properties of holds and recalls (spec §5) through the real server, on both stores: for any sequence
 * of receipts, holds (with `deallocate` or not), releases, waves, picks and shipments, customer
 * returns, transfers to another site (received there), and moves, no wave allocates a content an
 * Active hold covers as it starts (`checkAllocationAvoidsHolds`), and each lot's trace is complete
 * against the ledger at both sites (`checkTrace` of `@wms/core/testing`). No request answers 500.
 * The holds issue asks these on both stores: which contents a wave may take is each store's query.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { checkAllocationAvoidsHolds, checkTrace, type LotLedgerRow } from "@wms/core/testing"
import { Effect, Runtime } from "effect"
import fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"
import { serverOnBothStores } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { type Request, session, startedWave } from "./PickingWorld.js"
import { destinationSite, skuOnSites } from "./TransferWorld.js"

const lots = ["L1", "L2", "L3"]
const places = ["P1", "P2"]
const lot = fc.constantFrom(...lots)
const qty = fc.integer({ min: 1, max: 6 })
const index = fc.nat({ max: 7 })

// Receipts, waves, picks and what ships or comes back weigh more: a run has stock to hold and ship.
const operation = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("receive" as const), lot, place: fc.constantFrom(...places), qty })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("hold" as const),
      lot: fc.option(lot, { nil: undefined }),
      place: fc.constantFrom(...places),
      deallocate: fc.boolean()
    })
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("release" as const), hold: index }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("wave" as const), qty }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("pickAndShip" as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("return" as const),
      order: index,
      lot,
      disposition: fc.constantFrom("Restock", "Quarantine")
    })
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("transfer" as const), qty }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("move" as const), content: index, qty }) }
)
type Operation = typeof operation extends fc.Arbitrary<infer A> ? A : never

// Every run starts with an order shipped of a lot, so that returns have one to come back from.
const shippedFirst: ReadonlyArray<Operation> = [
  { kind: "receive", lot: "L1", place: "P1", qty: 6 },
  { kind: "wave", qty: 2 },
  { kind: "pickAndShip" }
]

const sql = Effect.map(SqlClient.SqlClient, (client) => client)

/**
 * Plays the operations on a new SKU, of `main` and of the transfers' destination `north`; yields the
 * violations of its holds and of its traces at both sites, and any 5xx.
 */
const play = (request: Request, north: string, operations: ReadonlyArray<Operation>) =>
  Effect.gen(function*() {
    const db = yield* sql
    const sku = yield* skuOnSites([north], "HP")
    const tag = (name: string) => `${sku}-${name}`
    const holds: Array<number> = []
    const waves: Array<number> = []
    const shipped: Array<string> = []
    const problems: Array<string> = []
    const answered = (what: unknown, status: number) => {
      if (status >= 500) problems.push(`${JSON.stringify(what)} → ${status}`)
    }
    for (const op of operations) {
      if (op.kind === "receive") {
        const preAdvice = unique("PA")
        answered(
          op,
          (yield* request("POST", "/preadvices", { pre_advice_id: preAdvice, lines: [{ sku_id: sku, qty: op.qty }] }))
            .status
        )
        answered(
          op,
          (yield* request("POST", `/preadvices/${preAdvice}/receive`, {
            lines: [{ line: 1, qty: op.qty, tag_id: tag(op.lot), loc_id: `${sku}-${op.place}` }],
            putaway: false
          })).status
        )
      } else if (op.kind === "hold") {
        const body = op.lot === undefined
          ? { loc_id: `${sku}-${op.place}`, reason_code: "QA", deallocate: op.deallocate }
          : { sku_id: sku, tag_id: tag(op.lot), reason_code: "QA", deallocate: op.deallocate }
        const made = yield* request("POST", "/holds", body)
        answered(op, made.status)
        if (made.status === 201) holds.push(made.body.id)
      } else if (op.kind === "release") {
        if (holds.length > 0) {
          answered(op, (yield* request("POST", `/holds/${holds[op.hold % holds.length]}/release`)).status)
        }
      } else if (op.kind === "wave") {
        const held = new Set(
          ((yield* request("GET", "/inventory/overview?held=true")).body as ReadonlyArray<{ content_id: number }>)
            .map((row) => row.content_id)
        )
        const waveId = yield* startedWave(request, [{ order_id: unique("HPO"), lines: [{ sku_id: sku, qty: op.qty }] }])
        waves.push(waveId)
        const claims = yield* db<
          { id: number; content_id: number }
        >`SELECT id, content_id FROM claims WHERE wave_id = ${waveId}`
        problems.push(...checkAllocationAvoidsHolds(held, claims))
      } else if (op.kind === "pickAndShip") {
        for (const waveId of waves) {
          const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<{ id: number }>
          for (const task of tasks) answered(op, (yield* request("POST", `/tasks/${task.id}/confirm`)).status)
          const orders = (yield* request("GET", `/waves/${waveId}/orders`)).body as ReadonlyArray<{ order_id: string }>
          for (const order of orders) {
            const ship = yield* request("POST", `/orders/${order.order_id}/ship`)
            answered(op, ship.status)
            if (ship.status === 204) shipped.push(order.order_id)
          }
        }
      } else if (op.kind === "return") {
        if (shipped.length === 0) continue
        const rma = yield* request("POST", "/returns", {
          order_id: shipped[op.order % shipped.length],
          reason_code: "Damaged",
          lines: [{ order_line: 1, qty: 1 }]
        })
        answered(op, rma.status)
        if (rma.status === 201) {
          answered(
            op,
            (yield* request("POST", `/returns/${rma.body.return_id}/receive`, {
              lines: [{ line: 1, qty: 1, disposition: op.disposition, tag_id: tag(op.lot) }]
            })).status
          )
        }
      } else if (op.kind === "transfer") {
        // Shipped whatever its wave picked, and received in full at the destination.
        const orderId = unique("HPT")
        answered(
          op,
          (yield* request("POST", "/orders", {
            order_id: orderId,
            to_site: north,
            lines: [{ sku_id: sku, qty: op.qty }]
          })).status
        )
        answered(
          op,
          (yield* request("POST", "/wave-definitions", {
            description: orderId,
            criterium_id: 2,
            value: orderId,
            pick_type: 1
          })).status
        )
        const definitions = (yield* request("GET", "/wave-definitions")).body as ReadonlyArray<
          { readonly id: number; readonly value: string | null }
        >
        const created = yield* request("POST", "/waves/create", {
          wavedef_id: definitions.find((d) => d.value === orderId)!.id
        })
        answered(op, created.status)
        if (created.status !== 200) continue
        const waveId = created.body.wave_id as number
        answered(op, (yield* request("POST", "/waves/start", { wave_id: waveId })).status)
        const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`)).body as ReadonlyArray<{ id: number }>
        for (const task of tasks) answered(op, (yield* request("POST", `/tasks/${task.id}/confirm`)).status)
        const ship = yield* request("POST", `/orders/${orderId}/ship`)
        answered(op, ship.status)
        if (ship.status === 204) {
          answered(op, (yield* request("POST", `/preadvices/TR-main-${orderId}/receive`, {}, north)).status)
        }
      } else {
        const contents = yield* db<{ content_id: number }>`SELECT content_id FROM contents
          WHERE sku_id = ${sku} AND qty > 0 ORDER BY content_id`
        if (contents.length === 0) continue
        const source = contents[op.content % contents.length].content_id
        const task = yield* request("POST", "/movement-tasks", {
          content_id: source,
          qty: op.qty,
          to_loc_id: `${sku}-MOVED`
        })
        answered(op, task.status)
        if (task.status === 201) {
          answered(
            op,
            (yield* request("POST", `/movement-tasks/${task.body.id}/confirm`)).status
          )
        }
      }
    }
    for (const site of ["main", north]) {
      for (const name of lots) {
        const trace = yield* request("GET", `/trace?sku_id=${sku}&tag_id=${tag(name)}`, undefined, site)
        expectStatus(trace, 200)
        const ledger = yield* db<LotLedgerRow>`SELECT t.transaction_type, t.content_id, t.qty, t.order_id, t.line_id
          FROM inventory_transactions t JOIN contents c ON c.content_id = t.content_id
          WHERE c.site_id = ${site} AND c.sku_id = ${sku} AND c.tag_id = ${tag(name)} ORDER BY t.id`
        problems.push(...checkTrace(trace.body, ledger).map((problem) => `${site} ${name}: ${problem}`))
      }
    }
    return problems
  }).pipe(Effect.orDie)

for (const [label, server] of serverOnBothStores) {
  layer(server, { timeout: 180_000 })(`holds properties on ${label}`, (it) => {
    it.effect("no wave allocates held stock, and every lot's trace is complete against the ledger", () =>
      Effect.gen(function*() {
        const request = yield* session
        const north = yield* destinationSite(request)
        const runtime = yield* Effect.runtime<SqlClient.SqlClient>()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(operation, { minLength: 4, maxLength: 12 }), (operations) =>
              Runtime.runPromise(runtime)(
                Effect.map(play(request, north, [...shippedFirst, ...operations]), (violations) =>
                  assert.deepStrictEqual(violations, []))
              )),
            { numRuns: propertyRuns(label === "sqlite" ? 6 : 3) }
          )
        )
      }))
  })
}
