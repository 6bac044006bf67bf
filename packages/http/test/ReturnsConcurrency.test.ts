/**
 * Returns under concurrency across processes (spec §5): 2 bundled servers on one PostgreSQL
 * database authorize returns of the same shipped order lines at once, and receive, close and cancel
 * them. Afterwards the database itself must show that no order line has more authorized by its
 * returns that are not Cancelled than it shipped (R2), that no return line received more than it
 * authorizes, and that each line's `Return` ledger rows bring in what it restocked and quarantined.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { freshPgDatabase } from "../../../testing/databases.js"
import type { ServerProcess } from "../../../testing/processes.js"
import { stormDuration } from "../../../testing/properties.js"
import { assertStormHeld, must, startStorm, storeSql, type StormDatabase } from "../../../testing/storms.js"

const site = "main"
const processes = 2
const clientsPerProcess = 3
const actionsPerClient = 40
const stormMillis = stormDuration(5_000)
/** The answers that show the storm raced: returns were authorized, refused past what shipped, and received. */
const raced = ["create 201", "create 409", "receive 204"]
const orderIds = ["RT-1", "RT-2"]
const skus = ["RT-A", "RT-B"]

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  create: [201, 409],
  receive: [204, 400, 409],
  close: [204, 409],
  cancel: [204, 409]
}

/** Authorized ≤ shipped per order line, received ≤ authorized per return line, Return rows as restocked. */
const violations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const problems: Array<string> = []
  const lines = yield* sql<{ order_id: string; line: number; qty_shipped: number; authorized: number }>`
    SELECT o.order_id, l.line, l.qty_shipped, CAST(COALESCE(SUM(rl.qty_authorized), 0) AS INTEGER) AS authorized
    FROM orders o JOIN order_lines l ON l.order_ref = o.id
    LEFT JOIN returns r ON r.order_ref = o.id AND r.status_id <> 21
    LEFT JOIN return_lines rl ON rl.return_ref = r.id AND rl.order_line = l.line
    GROUP BY o.order_id, l.line, l.qty_shipped`
  for (const line of lines) {
    if (line.authorized > line.qty_shipped) {
      problems.push(
        `order ${line.order_id} line ${line.line}: ${line.authorized} authorized, ${line.qty_shipped} shipped`
      )
    }
  }
  const returned = yield* sql<{ return_id: string; line: number; authorized: number; received: number; rows: number }>`
    SELECT r.return_id, rl.line, rl.qty_authorized AS authorized,
      rl.qty_restocked + rl.qty_quarantined + rl.qty_scrapped AS received,
      CAST(COALESCE((SELECT SUM(t.qty) FROM inventory_transactions t WHERE t.transaction_type = 'Return'
        AND t.notes = 'Return ' || r.return_id || ' line ' || rl.line), 0) AS INTEGER) - rl.qty_restocked
        - rl.qty_quarantined AS rows
    FROM returns r JOIN return_lines rl ON rl.return_ref = r.id`
  for (const line of returned) {
    const at = `return ${line.return_id} line ${line.line}`
    if (line.received > line.authorized) {
      problems.push(`${at}: ${line.received} received, ${line.authorized} authorized`)
    }
    if (line.rows !== 0) problems.push(`${at}: Return rows differ from restocked by ${line.rows}`)
  }
  return { problems, returns: new Set(returned.map((line) => line.return_id)).size }
})

const returnsStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm

    for (const sku_id of skus) {
      must(204, yield* request(first, "POST", "/skus", { sku_id, description: `Article ${sku_id}` }), `sku ${sku_id}`)
      must(204, yield* request(first, "POST", "/inventory/adjustments", { sku_id, loc_id: "F-1", qty: 100 }), "stock")
    }
    for (const order_id of orderIds) {
      const lines = skus.map((sku_id) => ({ sku_id, qty: 8 }))
      must(204, yield* request(first, "POST", "/orders", { order_id, lines }, `order-${order_id}`), order_id)
    }
    must(
      204,
      yield* request(first, "POST", "/wave-definitions", { description: "All", criterium_id: 5, pick_type: 1 }),
      "definition"
    )
    const definitionId = (yield* request(first, "GET", "/wave-definitions")).body[0].id as number
    const created = yield* request(first, "POST", "/waves/create", { wavedef_id: definitionId }, "wave")
    must(200, created, "wave")
    must(200, yield* request(first, "POST", "/waves/start", { wave_id: created.body.wave_id }, "start"), "start")
    for (const task of (yield* request(first, "GET", "/tasks")).body as Array<{ id: number }>) {
      must(204, yield* request(first, "POST", `/tasks/${task.id}/confirm`, {}, `confirm-${task.id}`), "confirm")
    }
    for (const orderId of orderIds) {
      must(204, yield* request(first, "POST", `/orders/${orderId}/ship`, {}, `ship-${orderId}`), `ship ${orderId}`)
    }

    const open = (server: ServerProcess) =>
      Effect.map(
        Effect.all([request(server, "GET", "/returns?status_id=1"), request(server, "GET", "/returns?status_id=2")]),
        ([opened, receiving]) => [...opened.body, ...receiving.body] as Array<{ return_id: string }>
      )
    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          const line = () => ({ order_line: 1 + Math.floor(next() * skus.length), qty: 1 + Math.floor(next() * 3) })
          if (roll < 0.6) {
            const body = {
              order_id: pick(orderIds),
              reason_code: "Damaged",
              lines: next() < 0.7 ? [line()] : [line(), line()]
            }
            record("create", s, `create ${JSON.stringify(body)}`, yield* request(server, "POST", "/returns", body))
            continue
          }
          const rma = pick(yield* open(server))
          if (rma === undefined) continue
          if (roll < 0.8) {
            const body = {
              lines: [{
                line: 1,
                qty: 1 + Math.floor(next() * 2),
                disposition: pick(["Restock", "Restock", "Quarantine", "Scrap"])
              }]
            }
            record(
              "receive",
              s,
              `receive ${rma.return_id} ${JSON.stringify(body)}`,
              yield* request(server, "POST", `/returns/${rma.return_id}/receive`, body)
            )
          } else if (roll < 0.9) {
            record(
              "close",
              s,
              `close ${rma.return_id}`,
              yield* request(server, "POST", `/returns/${rma.return_id}/close`)
            )
          } else {
            record(
              "cancel",
              s,
              `cancel ${rma.return_id}`,
              yield* request(server, "DELETE", `/returns/${rma.return_id}`)
            )
          }
        }
      })
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )

    const found = yield* Effect.provide(violations, storeSql(database)).pipe(Effect.orDie)
    const summary = `${storm.summary()}; ${found.returns} returns`
    assertStormHeld(storm, found.problems, summary)
    // The storm did race: returns were authorized and refused for more than shipped, and received.
    for (const done of raced) {
      assert.isAbove(tally.get(done) ?? 0, 0, summary)
    }
  })

describe("returns across 2 server processes on one database", () => {
  it.live(
    "PostgreSQL: returns of the same order lines at once never authorize more than shipped",
    () => Effect.scoped(Effect.flatMap(freshPgDatabase, (url) => returnsStorm({ kind: "pg", url }))),
    { timeout: 150_000 }
  )
})
