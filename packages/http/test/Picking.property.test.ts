import type { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { insertSku } from "../../../testing/fixtures.js"
import { propertyRuns } from "../../../testing/properties.js"
import type { Api } from "../../../testing/server.js"
import { serverOnApiTestStores } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { addStock, contentRows, ledgerRows, session, startedWave } from "./PickingWorld.js"

type Runner = <A>(effect: Effect.Effect<A, never, Api | SqlClient.SqlClient>) => Promise<A>

/** Runs fast-check's async property with the test's services, so one server serves every sample. */
const withRunner = Effect.map(
  Effect.context<Api | SqlClient.SqlClient>(),
  (context): Runner => (effect) => Effect.runPromise(Effect.provide(effect, context))
)

const world = fc.record({
  contents: fc.array(fc.record({ sku: fc.integer({ min: 0, max: 1 }), qty: fc.integer({ min: 1, max: 6 }) }), {
    minLength: 1,
    maxLength: 4
  }),
  orders: fc.array(
    fc.array(fc.record({ sku: fc.integer({ min: 0, max: 1 }), qty: fc.integer({ min: 1, max: 6 }) }), {
      minLength: 1,
      maxLength: 3
    }),
    { minLength: 1, maxLength: 3 }
  ),
  pickType: fc.constantFrom<1 | 2 | 3 | 4>(1, 2, 3, 4),
  // Each confirmation takes the open task at `task` (modulo their number) and picks `share` of it;
  // a null share sends an empty body, which picks all of it.
  confirmations: fc.array(
    fc.record({
      task: fc.nat(),
      share: fc.option(fc.constantFrom(0, 0.25, 0.5, 0.75, 1), { nil: null })
    }),
    { maxLength: 10 }
  )
})

interface Claim {
  readonly id: number
  readonly content_id: number
  readonly qty: number
  readonly order_id: string
  readonly line_id: number
  readonly claimset: number
}

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`picking properties on ${label}`, (it) => {
    it.effect("any wave and any full and short confirmations keep stock, ledger, lines and statuses right", () =>
      Effect.gen(function*() {
        const run = yield* withRunner
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(world, (input) =>
              run(Effect.gen(function*() {
                const request = yield* session
                const skus = [unique("QS"), unique("QT")]
                for (const sku of skus) yield* insertSku({ sku_id: sku })
                for (const [i, content] of input.contents.entries()) {
                  yield* addStock(request, skus[content.sku], `Q-${i}`, content.qty)
                }
                const orders = input.orders.map((lines) => ({
                  order_id: unique("QO"),
                  lines: lines.map((line) => ({ sku_id: skus[line.sku], qty: line.qty }))
                }))
                const waveId = yield* startedWave(request, orders, input.pickType)
                const claims = (yield* request("GET", `/waves/${waveId}/claims`)).body as ReadonlyArray<Claim>
                const startStatuses = new Map<string, number>()
                for (const order of orders) {
                  const started = yield* request("GET", `/orders/${order.order_id}`)
                  startStatuses.set(order.order_id, started.body.order_status.id)
                }
                const startClaimsets: ReadonlyArray<{ id: number }> =
                  (yield* request("GET", `/waves/${waveId}/claimsets`)).body
                const initial = new Map((yield* contentRows(skus)).map((c) => [c.content_id, c.qty]))

                // The statuses the rules give, after every confirmation.
                const picked = new Map<number, number>()
                const checkStatuses = Effect.gen(function*() {
                  for (const order of orders) {
                    const got = (yield* request("GET", `/orders/${order.order_id}`)).body
                    const own = claims.filter((c) => c.order_id === order.order_id)
                    const status = !own.some((c) => picked.has(c.id))
                      ? startStatuses.get(order.order_id)
                      : !own.every((c) => picked.has(c.id))
                      ? 17
                      : own.some((c) => picked.get(c.id)! > 0)
                      ? 18
                      : 14
                    assert.strictEqual(got.order_status.id, status, order.order_id)
                  }
                  const claimsets = (yield* request("GET", `/waves/${waveId}/claimsets`)).body as ReadonlyArray<{
                    id: number
                    status: string
                  }>
                  const expectedSets = startClaimsets.flatMap(({ id }) => {
                    const own = claims.filter((c) => c.claimset === id)
                    if (own.every((c) => picked.get(c.id) === 0)) return []
                    return [{ id, status: own.every((c) => picked.has(c.id)) ? "picked" : "released" }]
                  })
                  assert.deepStrictEqual(claimsets.map(({ id, status }) => ({ id, status })), expectedSets)
                  const wave = (yield* request("GET", `/waves/${waveId}`)).body
                  const waveStatus = picked.size === 0 ? 15 : picked.size === claims.length ? 20 : 17
                  assert.strictEqual(wave.status_id, waveStatus)
                  const openTasks: ReadonlyArray<{ id: number }> =
                    (yield* request("GET", `/tasks?wave_id=${waveId}`)).body
                  const stillOpen = claims.filter((c) => !picked.has(c.id)).map((c) => c.id)
                  assert.deepStrictEqual(openTasks.map((t) => t.id), stillOpen)
                })

                // Confirm, keeping a model of what each confirmation picked.
                for (const confirmation of input.confirmations) {
                  const open = claims.filter((claim) => !picked.has(claim.id))
                  if (open.length === 0) break
                  const task = open[confirmation.task % open.length]
                  const qty = confirmation.share === null ? task.qty : Math.floor(confirmation.share * task.qty)
                  const body = confirmation.share === null ? undefined : { qty }
                  expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`, body), 204)
                  picked.set(task.id, qty)
                  yield* checkStatuses
                }

                // The stock rule, and every unit that left a content in exactly one Pick or Lost.
                const ledger = yield* ledgerRows(skus)
                for (const content of yield* contentRows(skus)) {
                  assert.isTrue(content.qty_allocated >= 0 && content.qty_tasked_from >= 0)
                  assert.isTrue(content.qty_allocated + content.qty_tasked_from <= content.qty)
                  const left = ledger
                    .filter((t) => t.content_id === content.content_id && ["Pick", "Lost"].includes(t.transaction_type))
                    .reduce((sum, t) => sum + t.qty, 0)
                  assert.strictEqual(initial.get(content.content_id)! - content.qty, left)
                  const held = claims.filter((c) => c.content_id === content.content_id && !picked.has(c.id))
                  assert.strictEqual(content.qty_allocated, held.reduce((sum, c) => sum + c.qty, 0))
                }
                const moves = ledger.filter((t) => t.transaction_type === "Pick" || t.transaction_type === "Lost")
                const expectedMoves = claims.flatMap((claim) => {
                  const qty = picked.get(claim.id)
                  if (qty === undefined) return []
                  return [
                    ...(qty > 0 ? [["Pick", claim.content_id, qty, `Task ${claim.id}`]] : []),
                    ...(qty < claim.qty
                      ? [["Lost", claim.content_id, claim.qty - qty, `Short pick of task ${claim.id}`]]
                      : [])
                  ]
                })
                const key = (move: ReadonlyArray<unknown>) => JSON.stringify(move)
                assert.deepStrictEqual(
                  moves.map((t) => key([t.transaction_type, t.content_id, t.qty, t.notes])).sort(),
                  expectedMoves.map(key).sort()
                )

                // qty_picked of each line is the sum of its picks.
                for (const order of orders) {
                  const got = (yield* request("GET", `/orders/${order.order_id}`)).body
                  for (const line of got.lines) {
                    const picks = ledger.filter((t) =>
                      t.transaction_type === "Pick" && t.order_id === order.order_id && t.line_id === line.line
                    )
                    assert.strictEqual(line.qty_picked, picks.reduce((sum, t) => sum + t.qty, 0))
                  }
                }
                yield* checkStatuses
              }))),
            { numRuns: propertyRuns(10) }
          )
        )
      }))
  })
}
