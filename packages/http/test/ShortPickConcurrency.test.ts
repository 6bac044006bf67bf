/**
 * Short picks under concurrency across processes: 2 bundled servers on one database, with
 * re-allocation and backorders on, confirm the tasks of the same SKUs short and whole, start waves
 * of new orders on the same stock, and ship, which makes backorder orders that later waves take,
 * all at once. Afterwards the database itself must show that no unit was allocated twice, that the
 * ledger replays, that no order line holds more picked, claimed and backordered than it asks for,
 * and that every backordered unit is on exactly one backorder order.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Stock } from "@wms/core"
import { Effect } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import type { ServerProcess } from "../../../testing/processes.js"
import { stormDuration } from "../../../testing/properties.js"
import {
  assertStormHeld,
  failuresLogged,
  must,
  startStorm,
  storeSql,
  type StormDatabase
} from "../../../testing/storms.js"

const site = "main"
const processes = 2
const clientsPerProcess = 3
const actionsPerClient = 40
const stormMillis = stormDuration(5_000)
/** The answers that show the storm raced: picks confirmed, waves started, orders shipped. */
const raced = ["confirm 204", "start 200", "ship 204"]
const skus = ["SP-1", "SP-2"]
const floors = ["F-1", "F-2", "F-3", "F-4"]

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  confirm: [204, 404],
  order: [204],
  start: [200, 404, 409],
  ship: [204, 409]
}

/** The invariants of stock, claims, order lines and backorders, read from the database; each violation as one line. */
const violations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const problems: Array<string> = []
  const contents = yield* sql<{ content_id: number; qty: number; qty_allocated: number; qty_tasked_from: number }>`
    SELECT content_id, qty, qty_allocated, qty_tasked_from FROM contents`
  const claims = yield* sql<{ content_id: number; order_ref: number; line_id: number; qty: number }>`
    SELECT content_id, order_ref, line_id, qty FROM claims WHERE status = 'allocated'`
  const ledger = yield* sql<{
    content_id: number
    from_content_id: number | null
    transaction_type: Stock.TransactionType
    qty: number
    order_id: string | null
    line_id: number | null
    notes: string | null
  }>`SELECT content_id, from_content_id, transaction_type, qty, order_id, line_id, notes FROM inventory_transactions
    ORDER BY id`
  const lines = yield* sql<{
    order_ref: number
    order_id: string
    backorder_of: string | null
    status_id: number
    line: number
    qty: number
    qty_picked: number
    qty_shipped: number
    qty_backordered: number
  }>`SELECT o.id AS order_ref, o.order_id, o.backorder_of, o.status_id, l.line, l.qty, l.qty_picked, l.qty_shipped,
      l.qty_backordered
    FROM orders o JOIN order_lines l ON l.order_ref = o.id`

  const claimed = new Map<number, number>()
  const claimedOfLine = new Map<string, number>()
  for (const claim of claims) {
    claimed.set(claim.content_id, (claimed.get(claim.content_id) ?? 0) + claim.qty)
    const line = `${claim.order_ref}/${claim.line_id}`
    claimedOfLine.set(line, (claimedOfLine.get(line) ?? 0) + claim.qty)
  }
  const replayed = Stock.replay(ledger)
  for (const content of contents) {
    const id = content.content_id
    if (!Stock.isValid(content) || content.qty < 0) {
      problems.push(`content ${id} breaks 0 ≤ allocated + tasked ≤ qty: ${JSON.stringify(content)}`)
    }
    if (content.qty_allocated !== (claimed.get(id) ?? 0)) {
      problems.push(`content ${id}: qty_allocated ${content.qty_allocated}, open claims ${claimed.get(id)}`)
    }
    const replay = replayed.get(id) ?? { qty: 0, qty_allocated: 0, qty_tasked_from: 0 }
    if (replay.qty !== content.qty || replay.qty_allocated !== content.qty_allocated) {
      problems.push(`content ${id}: ${JSON.stringify(content)}, the ledger replays to ${JSON.stringify(replay)}`)
    }
  }

  // What short picks lost of a line, and what they claimed again.
  const lost = new Map<string, number>()
  const reclaimed = new Map<string, number>()
  for (const row of ledger) {
    const line = `${row.order_id}/${row.line_id}`
    if (row.transaction_type === "Lost") lost.set(line, (lost.get(line) ?? 0) + row.qty)
    if (row.transaction_type === "Allocate" && row.notes?.startsWith("Re-allocation of task ")) {
      reclaimed.set(line, (reclaimed.get(line) ?? 0) + row.qty)
    }
  }

  // Demand per line: what is picked, claimed and backordered never adds up to more than is asked,
  // and no more is backordered than short picks lost and did not claim again.
  const backordered = new Map<string, number>()
  const onBackorders = new Map<string, number>()
  for (const line of lines) {
    const open = claimedOfLine.get(`${line.order_ref}/${line.line}`) ?? 0
    const key = `${line.order_id}/${line.line}`
    const uncovered = (lost.get(key) ?? 0) - (reclaimed.get(key) ?? 0)
    if (
      line.qty_picked + open + line.qty_backordered > line.qty || line.qty_shipped > line.qty_picked ||
      line.qty_backordered > uncovered
    ) {
      problems.push(
        `order ${key}: ${JSON.stringify(line)} with ${open} claimed, ${uncovered} lost and not claimed again`
      )
    }
    // Every backordered unit of a shipped order is on exactly one backorder of the first order of its chain.
    const first = `${line.backorder_of ?? line.order_id}/${line.line}`
    if (line.status_id === 19) backordered.set(first, (backordered.get(first) ?? 0) + line.qty_backordered)
    if (line.backorder_of !== null) onBackorders.set(first, (onBackorders.get(first) ?? 0) + line.qty)
  }
  for (const key of new Set([...backordered.keys(), ...onBackorders.keys()])) {
    if ((backordered.get(key) ?? 0) !== (onBackorders.get(key) ?? 0)) {
      problems.push(`${key}: ${backordered.get(key)} backordered when shipped, ${onBackorders.get(key)} on backorders`)
    }
  }
  return problems
})

const shortPickStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm

    const settings = { reallocate_short_picks: true, backorders: true }
    must(204, yield* request(first, "PUT", `/sites/${site}/settings`, settings), "settings")
    for (const sku_id of skus) {
      must(204, yield* request(first, "POST", "/skus", { sku_id, description: `Article ${sku_id}` }), `sku ${sku_id}`)
      for (const floor of floors) {
        const stock = { sku_id, loc_id: floor, qty: 8 + Math.floor(next() * 8) }
        must(204, yield* request(first, "POST", "/inventory/adjustments", stock), `stock of ${sku_id}`)
      }
    }
    must(
      204,
      yield* request(first, "POST", "/wave-definitions", { description: "All", criterium_id: 5, pick_type: 1 }),
      "definition"
    )
    const definitionId = (yield* request(first, "GET", "/wave-definitions")).body[0].id as number

    const newOrder = (server: ServerProcess, s: number, id: string) =>
      Effect.map(
        request(server, "POST", "/orders", {
          order_id: id,
          lines: skus.filter((_, i) => i === 0 || next() < 0.7).map((sku_id) => ({
            sku_id,
            qty: 1 + Math.floor(next() * 4)
          }))
        }),
        (created) => record("order", s, `POST /orders ${id}`, created)
      )
    const startWave = (server: ServerProcess, s: number) =>
      Effect.gen(function*() {
        const created = yield* request(server, "POST", "/waves/create", { wavedef_id: definitionId })
        if (created.status !== 200) return
        record(
          "start",
          s,
          "POST /waves/start",
          yield* request(server, "POST", "/waves/start", { wave_id: created.body.wave_id })
        )
      })
    for (let i = 0; i < 12; i++) yield* newOrder(first, 0, `SO-${i}`)
    yield* startWave(first, 0)

    let orders = 0
    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          if (roll < 0.6) {
            const open = yield* request(server, "GET", "/tasks")
            const task = pick(open.body as Array<{ id: number; quantity: number }>)
            if (task === undefined) continue
            const body = next() < 0.7
              ? { qty: Math.floor(next() * task.quantity), ...(next() < 0.3 ? { reallocate: next() < 0.8 } : {}) }
              : {}
            const confirmed = yield* request(server, "POST", `/tasks/${task.id}/confirm`, body)
            record("confirm", s, `confirm ${task.id} ${JSON.stringify(body)}`, confirmed)
          } else if (roll < 0.8) {
            yield* newOrder(server, s, `SO-${s}-${n}-${orders++}`)
            yield* startWave(server, s)
          } else {
            const picked = yield* request(server, "GET", "/orders?lines=false")
            const order = pick(
              (picked.body as Array<{ order_id: string; order_status: { id: number } }>).filter((o) =>
                o.order_status.id === 18
              )
            )
            if (order === undefined) continue
            record(
              "ship",
              s,
              `ship ${order.order_id}`,
              yield* request(server, "POST", `/orders/${order.order_id}/ship`)
            )
          }
        }
      })
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )

    const problems = yield* Effect.provide(violations, storeSql(database)).pipe(Effect.orDie)
    const summary = storm.summary()
    assertStormHeld(storm, problems, summary)
    // The storm did race: short and whole confirms, starts and shipments went through.
    for (const done of raced) assert.isAbove(tally.get(done) ?? 0, 0, summary)
  })

/**
 * Short picks with an `Idempotency-Key`, 2 at a time on 2 server processes, re-allocating their
 * shortfall from the same stock: each round, a new SKU on 4 contents and 2 orders in 2 waves, whose
 * tasks, on 2 contents, are confirmed short at once, each with its own key, then again with the
 * same key. Where PostgreSQL breaks a deadlock it rolls one of them back whole; a trigger also fails
 * the first Lost entry of each round as it would (SQLSTATE 40P01), so every round meets one. The
 * transactor runs the keyed transaction again: every confirmation answers 204, its retry replays
 * it, and each task is written, and its key kept, once.
 */
const keyedShortPicks = (url: string) =>
  Effect.gen(function*() {
    const database = { kind: "pg", url } as const
    const storm = yield* startStorm(database, { processes: 2, site, allowed: {} })
    const { first, request, servers } = storm
    must(204, yield* request(first, "PUT", `/sites/${site}/settings`, { reallocate_short_picks: true }), "settings")
    must(
      204,
      yield* request(first, "POST", "/wave-definitions", { description: "All", criterium_id: 5, pick_type: 1 }),
      "definition"
    )
    const definitionId = (yield* request(first, "GET", "/wave-definitions")).body[0].id as number
    const onDatabase = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provide(effect, storeSql(database)).pipe(Effect.orDie)
    yield* onDatabase(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Sequences, which a rollback leaves as they are: the round's Lost entries, and the failures.
      yield* sql`CREATE SEQUENCE lost_in_round`
      yield* sql`CREATE SEQUENCE injected_deadlocks`
      yield* sql.unsafe(`CREATE FUNCTION inject_deadlock() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.transaction_type = 'Lost' AND nextval('lost_in_round') = 1 THEN
            PERFORM nextval('injected_deadlocks');
            RAISE EXCEPTION 'deadlock detected (injected)' USING ERRCODE = 'deadlock_detected';
          END IF;
          RETURN NEW;
        END $$`)
      yield* sql`CREATE TRIGGER inject_deadlock BEFORE INSERT ON inventory_transactions
        FOR EACH ROW EXECUTE FUNCTION inject_deadlock()`
    }))

    const rounds = 8
    for (let round = 0; round < rounds; round++) {
      const sku_id = `KS-${round}`
      must(204, yield* request(first, "POST", "/skus", { sku_id, description: sku_id }), `sku ${sku_id}`)
      for (const floor of floors) {
        must(204, yield* request(first, "POST", "/inventory/adjustments", { sku_id, loc_id: floor, qty: 6 }), "stock")
      }
      const tasks: Array<number> = []
      for (const [i, server] of servers.entries()) {
        const order_id = `KS-${round}-${i}`
        must(204, yield* request(server, "POST", "/orders", { order_id, lines: [{ sku_id, qty: 4 }] }), order_id)
        const created = yield* request(server, "POST", "/waves/create", { wavedef_id: definitionId })
        must(200, created, `wave of ${order_id}`)
        const wave_id = created.body.wave_id as number
        must(200, yield* request(server, "POST", "/waves/start", { wave_id }), `start of ${order_id}`)
        const [task] = (yield* request(server, "GET", `/tasks?wave_id=${wave_id}`)).body as Array<{ id: number }>
        tasks.push(task.id)
      }
      yield* onDatabase(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER SEQUENCE lost_in_round RESTART`))
      const confirm = (i: number) =>
        request(
          servers[i],
          "POST",
          `/tasks/${tasks[i]}/confirm`,
          { qty: 1, reason_code: "StockOut" },
          `KS-${round}-${i}`
        )
      const confirmed = yield* Effect.all([0, 1].map(confirm), { concurrency: "unbounded" })
      assert.deepStrictEqual(
        confirmed.map((result) => result.status),
        [204, 204],
        `round ${round}: ${JSON.stringify(confirmed.map((result) => result.body))}\n${failuresLogged(servers)}`
      )
      for (const i of [0, 1]) {
        const retried = yield* confirm(i)
        assert.deepStrictEqual([retried.status, retried.headers["idempotent-replayed"]], [204, "true"])
      }
    }

    const written = yield* onDatabase(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [{ injected }] = yield* sql<
        { injected: number }
      >`SELECT last_value::int AS injected FROM injected_deadlocks`
      const lost = yield* sql<{ notes: string; entries: number }>`SELECT notes, count(*)::int AS entries
        FROM inventory_transactions WHERE transaction_type = 'Lost' GROUP BY notes`
      const [{ keys }] = yield* sql<{ keys: number }>`SELECT count(*)::int AS keys FROM idempotency_keys
        WHERE idempotency_key LIKE 'KS-%'`
      return { injected, lost, keys }
    }))
    assertStormHeld(storm, [])
    // Every round's first Lost entry failed; each task lost its shortfall once, and each key was kept once.
    assert.strictEqual(written.injected, rounds)
    assert.strictEqual(written.lost.length, rounds * 2)
    assert.isTrue(written.lost.every((row) => row.entries === 1), JSON.stringify(written.lost))
    assert.strictEqual(written.keys, rounds * 2)
  })

describe("short picks across 2 server processes on one database", () => {
  it.live(
    "PostgreSQL: re-allocating short picks, wave starts and shipments with backorders never allocate a unit twice nor lose demand",
    () => Effect.flatMap(freshPgDatabase, (url) => shortPickStorm({ kind: "pg", url })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )

  it.live(
    "SQLite: re-allocating short picks, wave starts and shipments with backorders never allocate a unit twice nor lose demand",
    () =>
      Effect.flatMap(freshSqliteFile, (filename) => shortPickStorm({ kind: "sqlite", filename })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )
})

describe("keyed short picks across 2 server processes on one PostgreSQL database", () => {
  it.live(
    "a deadlock of a keyed confirmation runs the whole keyed transaction again: 204, replayed, written once",
    () => Effect.flatMap(freshPgDatabase, keyedShortPicks).pipe(Effect.scoped),
    { timeout: 120_000 }
  )
})
