/**
 * Holds under concurrency across processes (spec §5): 2 bundled servers on one PostgreSQL database
 * create lot and location holds with `deallocate`, release them, create and start waves, confirm
 * picks and add orders, all at once. Afterwards the database itself must show that no open pick is
 * on stock an Active hold covers (every hold deallocated what it covered, and no later wave took
 * it), that no pick was lost, and that every allocation is accounted for: each content's
 * `qty_allocated` is what its open picks hold, and the ledger replays to every content.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Stock } from "@wms/core"
import { Effect } from "effect"
import { freshPgDatabase } from "../../../testing/databases.js"
import { stormDuration } from "../../../testing/properties.js"
import { assertStormHeld, must, startStorm, storeSql, type StormDatabase } from "../../../testing/storms.js"

const site = "main"
const processes = 2
const clientsPerProcess = 3
const actionsPerClient = 60
const stormMillis = stormDuration(5_000)
/** The answers that show the storm raced: holds were made and released, waves started and picks confirmed. */
const raced = ["hold 201", "release 204", "start 200", "confirm 204"]
const skus = ["HC-A", "HC-B"]
const lots = ["LOT-1", "LOT-2", "LOT-3"]
const places = ["HC-L1", "HC-L2"]

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  hold: [201],
  release: [204, 409],
  wave: [200, 409],
  start: [200, 404, 409],
  confirm: [204, 404],
  order: [204]
}

/** Open picks on held stock, lost picks, allocations not accounted for; each violation as one line. */
const violations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const problems: Array<string> = []
  const heldPicks = yield* sql<{ id: number; content_id: number; hold_id: number }>`
    SELECT cl.id, cl.content_id, h.id AS hold_id FROM claims cl
    JOIN contents c ON c.content_id = cl.content_id
    JOIN holds h ON h.site_id = c.site_id AND h.status_id = 24
      AND (h.sku_id IS NULL OR h.sku_id = c.sku_id) AND (h.tag_id IS NULL OR h.tag_id = c.tag_id)
      AND (h.loc_id IS NULL OR h.loc_id = c.loc_id)
    WHERE cl.status = 'allocated'`
  for (const pick of heldPicks) {
    problems.push(`open pick ${pick.id} is on content ${pick.content_id}, which Active hold ${pick.hold_id} covers`)
  }
  const lost = yield* sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM lost_and_found`
  if (lost[0].n > 0) problems.push(`${lost[0].n} lost-and-found items: a pick was lost`)
  const contents = yield* sql<{ content_id: number; qty: number; qty_allocated: number; qty_tasked_from: number }>`
    SELECT content_id, qty, qty_allocated, qty_tasked_from FROM contents`
  const open = new Map(
    (yield* sql<{ content_id: number; qty: number }>`SELECT content_id, CAST(SUM(qty) AS INTEGER) AS qty
      FROM claims WHERE status = 'allocated' GROUP BY content_id`).map((row) => [row.content_id, row.qty])
  )
  const ledger = yield* sql<
    { content_id: number; from_content_id: number | null; transaction_type: Stock.TransactionType; qty: number }
  >`SELECT content_id, from_content_id, transaction_type, qty FROM inventory_transactions ORDER BY id`
  const replayed = Stock.replay(ledger)
  for (const content of contents) {
    if ((open.get(content.content_id) ?? 0) !== content.qty_allocated) {
      problems.push(
        `content ${content.content_id}: qty_allocated ${content.qty_allocated}, open picks ${
          open.get(content.content_id) ?? 0
        }`
      )
    }
    const replay = replayed.get(content.content_id)
    if (
      replay === undefined || replay.qty !== content.qty || replay.qty_allocated !== content.qty_allocated ||
      replay.qty_tasked_from !== content.qty_tasked_from
    ) {
      problems.push(`content ${content.content_id}: ledger replays to ${JSON.stringify(replay)}`)
    }
  }
  const lines = yield* sql<{ order_id: string; line: number; qty_picked: number; picked: number }>`
    SELECT o.order_id, l.line, l.qty_picked, CAST(COALESCE(SUM(cl.qty), 0) AS INTEGER) AS picked
    FROM orders o JOIN order_lines l ON l.order_ref = o.id
    LEFT JOIN claims cl ON cl.order_ref = o.id AND cl.line_id = l.line AND cl.status = 'picked'
    GROUP BY o.order_id, l.line, l.qty_picked`
  for (const line of lines) {
    if (line.picked !== line.qty_picked) {
      problems.push(
        `order ${line.order_id} line ${line.line}: qty_picked ${line.qty_picked}, picked claims ${line.picked}`
      )
    }
  }
  return { problems, contents: contents.length }
})

const holdsStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm

    for (const sku_id of skus) {
      must(204, yield* request(first, "POST", "/skus", { sku_id, description: `Article ${sku_id}` }), `sku ${sku_id}`)
      for (const tag_id of lots) {
        for (const loc_id of places) {
          must(
            204,
            yield* request(first, "POST", "/inventory/adjustments", { sku_id, loc_id, tag_id, qty: 200 }),
            "stock"
          )
        }
      }
    }
    must(
      204,
      yield* request(first, "POST", "/wave-definitions", { description: "All", criterium_id: 5, pick_type: 1 }),
      "definition"
    )
    const definitionId = (yield* request(first, "GET", "/wave-definitions")).body[0].id as number
    let orders = 0

    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          if (roll < 0.2) {
            const order_id = `HC-${s}-${orders++}`
            const lines = skus.map((sku_id) => ({ sku_id, qty: 1 + Math.floor(next() * 5) }))
            record("order", s, `order ${order_id}`, yield* request(server, "POST", "/orders", { order_id, lines }))
          } else if (roll < 0.4) {
            const created = record(
              "wave",
              s,
              "wave",
              yield* request(server, "POST", "/waves/create", { wavedef_id: definitionId })
            )
            if (created.status !== 200) continue
            const waveId = created.body.wave_id as number
            record("start", s, `start ${waveId}`, yield* request(server, "POST", "/waves/start", { wave_id: waveId }))
          } else if (roll < 0.52) {
            // Fewer holds than releases, and few of a whole place: stock stays free to pick from.
            const body = next() < 0.85
              ? { sku_id: pick(skus), tag_id: pick(lots), reason_code: "Storm", deallocate: true }
              : { loc_id: pick(places), reason_code: "Storm", deallocate: true }
            record("hold", s, `hold ${JSON.stringify(body)}`, yield* request(server, "POST", "/holds", body))
          } else if (roll < 0.72) {
            const hold = pick((yield* request(server, "GET", "/holds")).body as Array<{ id: number }>)
            if (hold === undefined) continue
            record("release", s, `release ${hold.id}`, yield* request(server, "POST", `/holds/${hold.id}/release`))
          } else {
            const task = pick((yield* request(server, "GET", "/tasks?limit=20")).body as Array<{ id: number }>)
            if (task === undefined) continue
            record("confirm", s, `confirm ${task.id}`, yield* request(server, "POST", `/tasks/${task.id}/confirm`, {}))
          }
        }
      })
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )

    const found = yield* Effect.provide(violations, storeSql(database)).pipe(Effect.orDie)
    const summary = `${storm.summary()}; ${found.contents} contents`
    assertStormHeld(storm, found.problems, summary)
    // The storm did race: holds were made and released, waves started and picks confirmed.
    for (const done of raced) {
      assert.isAbove(tally.get(done) ?? 0, 0, summary)
    }
  })

describe("holds across 2 server processes on one database", () => {
  it.live(
    "PostgreSQL: holds with deallocate racing wave starts and picks leave no open pick on held stock, none lost",
    () => Effect.scoped(Effect.flatMap(freshPgDatabase, (url) => holdsStorm({ kind: "pg", url }))),
    { timeout: 150_000 }
  )
})
