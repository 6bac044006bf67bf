/**
 * Transfers under concurrency across processes (spec §5): 2 bundled servers on one PostgreSQL
 * database receive the same shipped transfers at once, in parts and whole, and now and then
 * short-close one. Afterwards the database itself must show that no transfer line received more
 * than it shipped (nor received and lost more), that the TransferIn transactions of each line add
 * up to what it received, and that the two sites' stock is conserved per SKU and lot: on hand
 * before the transfers = on hand after + in transit + written off (`checkTransferConservation`).
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { checkTransferConservation, type LotOnHand } from "@wms/core/testing"
import { Effect } from "effect"
import { freshPgDatabase } from "../../../testing/databases.js"
import { stormDuration } from "../../../testing/properties.js"
import { assertStormHeld, must, startStorm, storeSql, type StormDatabase } from "../../../testing/storms.js"

const site = "main"
const destination = "north"
const processes = 2
const clientsPerProcess = 3
const actionsPerClient = 40
const stormMillis = stormDuration(5_000)
/** The answer that shows the storm raced: receipts refused past what shipped (or what is left). */
const raced = ["receive 400"]
const skus = ["TR-A", "TR-B"]
const orderIds = ["TO-1", "TO-2", "TO-3"]
const preAdviceIds = orderIds.map((orderId) => `TR-${site}-${orderId}`)

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  receive: [204, 400, 409],
  receiveAll: [204, 409],
  close: [204, 409]
}

/** The contents of both sites by lot. */
const onHand = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<LotOnHand>`SELECT sku_id, tag_id, expiry_date, CAST(SUM(qty) AS INTEGER) AS qty FROM contents
    WHERE site_id IN (${site}, ${destination}) GROUP BY sku_id, tag_id, expiry_date`
})

/** Received ≤ shipped per line, the ledger equal to it, and the sites' stock conserved; each violation as one line. */
const violations = (before: ReadonlyArray<LotOnHand>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const problems: Array<string> = []
    const lines = yield* sql<{
      pre_advice_id: string
      order_id: string
      line: number
      sku_id: string
      tag_id: string
      expiry_date: string | null
      qty: number
      qty_received: number
      qty_lost: number
      ledger: number
    }>`SELECT p.pre_advice_id, p.transfer_order_id AS order_id, l.line, l.sku_id, l.tag_id, l.expiry_date, l.qty,
        l.qty_received, l.qty_lost,
        CAST(COALESCE((SELECT SUM(t.qty) FROM inventory_transactions t
          WHERE t.site_id = p.site_id AND t.transaction_type = 'TransferIn' AND t.order_id = p.transfer_order_id
            AND t.line_id = l.line), 0) AS INTEGER) AS ledger
      FROM preadvices p JOIN preadvice_lines l ON l.preadvice_ref = p.id
      WHERE p.transfer_order_id IS NOT NULL ORDER BY p.id, l.line`
    for (const line of lines) {
      const at = `${line.pre_advice_id} line ${line.line}`
      if (line.qty_received + line.qty_lost > line.qty) {
        problems.push(`${at}: ${line.qty} shipped, ${line.qty_received} received, ${line.qty_lost} lost`)
      }
      if (line.ledger !== line.qty_received) {
        problems.push(`${at}: ${line.qty_received} received, ${line.ledger} in the ledger`)
      }
    }
    problems.push(...checkTransferConservation(before, yield* onHand, lines))
    return { problems, lines: lines.length, received: lines.reduce((sum, line) => sum + line.qty_received, 0) }
  })

const transferStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm

    must(204, yield* request(first, "POST", "/sites", { site_id: destination, name: "North" }), "site")
    for (const sku_id of skus) {
      for (const at of [site, destination]) {
        must(
          204,
          yield* request(
            first,
            "POST",
            "/skus",
            { sku_id, description: `Article ${sku_id}` },
            `sku-${sku_id}-${at}`,
            at
          ),
          "sku"
        )
      }
      for (const [lot, expiry_date] of [["L1", "2031-01-31"], ["L2", null]] as const) {
        const stock = { sku_id, loc_id: "F-1", tag_id: `${sku_id}-${lot}`, expiry_date, qty: 40 }
        must(204, yield* request(first, "POST", "/inventory/adjustments", stock), "stock")
      }
    }
    const before = yield* Effect.provide(onHand, storeSql(database)).pipe(Effect.orDie)
    for (const order_id of orderIds) {
      const lines = skus.map((sku_id) => ({ sku_id, qty: 20 }))
      must(
        204,
        yield* request(first, "POST", "/orders", { order_id, to_site: destination, lines }, `order-${order_id}`),
        order_id
      )
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
      must(
        204,
        yield* request(first, "POST", `/orders/${orderId}/ship`, undefined, `ship-${orderId}`),
        `ship ${orderId}`
      )
    }

    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          const preAdviceId = pick(preAdviceIds)
          const path = `/preadvices/${preAdviceId}`
          if (roll < 0.8) {
            const body = { lines: [{ line: 1 + Math.floor(next() * 4), qty: 1 + Math.floor(next() * 6) }] }
            record(
              "receive",
              s,
              `receive ${preAdviceId} ${JSON.stringify(body)}`,
              yield* request(server, "POST", `${path}/receive`, body, undefined, destination)
            )
          } else if (roll < 0.95) {
            record(
              "receiveAll",
              s,
              `receive all of ${preAdviceId}`,
              yield* request(server, "POST", `${path}/receive`, {}, undefined, destination)
            )
          } else {
            record(
              "close",
              s,
              `close ${preAdviceId}`,
              yield* request(server, "POST", `${path}/close`, { reason_code: "Damaged" }, undefined, destination)
            )
          }
        }
      })
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )

    const found = yield* Effect.provide(violations(before), storeSql(database)).pipe(Effect.orDie)
    const summary = `${storm.summary()}; ${found.lines} transfer lines, ${found.received} received`
    assertStormHeld(storm, found.problems, summary)
    // The storm did race: receipts went through, of a line or of all that is left (which can take
    // every transfer before a line's receipt does), and others were refused for more than was left.
    assert.isAbove((tally.get("receive 204") ?? 0) + (tally.get("receiveAll 204") ?? 0), 0, summary)
    for (const done of raced) assert.isAbove(tally.get(done) ?? 0, 0, summary)
  })

describe("transfers across 2 server processes on one database", () => {
  it.live(
    "PostgreSQL: receiving the same transfers at once never receives more than was shipped, and both sites' stock is conserved",
    () => Effect.scoped(Effect.flatMap(freshPgDatabase, (url) => transferStorm({ kind: "pg", url }))),
    { timeout: 150_000 }
  )
})
