/**
 * Waves under concurrency across processes: 3 bundled servers on one database take overlapping
 * wave starts (of different waves and of the same wave twice), wave deletes, deletes of allocated
 * orders and new waves at once. Afterwards the database itself must show that no unit was
 * allocated twice and that the allocation, the claims and the ledger agree.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { stormDuration } from "../../../testing/properties.js"
import { assertStormHeld, must, startStorm, storeSql, type StormDatabase } from "../../../testing/storms.js"

const site = "main"
const processes = 3
const skus = ["K-1", "K-2", "K-3", "K-4"]
const dateGroups = 6
const ordersPerGroup = 8
const stormMillis = stormDuration(5_000)
/** The answers that show the storm raced: waves started, waves and orders deleted. */
const raced = ["start 200", "deleteWave 204", "deleteOrder 204"]
const actionsPerClient = 40
const clientsPerProcess = 4

const orderDate = (group: number) => `2030-01-${String(group + 1).padStart(2, "0")}`
const dutchDate = (date: string) => date.split("-").reverse().join("-")

interface OrderSeed {
  readonly order_id: string
  readonly order_date: string
  readonly lines: ReadonlyArray<{ readonly sku_id: string; readonly qty: number }>
}

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  start: [200, 404, 409],
  deleteWave: [204, 404, 409],
  deleteOrder: [204, 404, 409],
  createOrder: [204, 409],
  createWave: [200]
}

/** The invariants of the allocation, read from the database; each violation as one line. */
const violations = (availableAtStart: ReadonlyMap<number, number>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const problems: Array<string> = []
    const contents = yield* sql<{
      content_id: number
      qty: number
      qty_allocated: number
      qty_tasked_from: number
      expiry_date: string | null
    }>`SELECT content_id, qty, qty_allocated, qty_tasked_from, expiry_date FROM contents ORDER BY content_id`
    const claims = yield* sql<{
      id: number
      wave_id: number
      content_id: number
      order_ref: number
      order_id: string
      line_id: number
      qty: number
      status: string
    }>`SELECT id, wave_id, content_id, order_ref, order_id, line_id, qty, status FROM claims ORDER BY id`
    const ledger = yield* sql<{
      transaction_type: string
      content_id: number
      order_id: string
      line_id: number
      qty: number
      notes: string
    }>`SELECT transaction_type, content_id, order_id, line_id, qty, notes FROM inventory_transactions
      WHERE transaction_type IN ('Allocate', 'Deallocate') ORDER BY id`
    const lines = yield* sql<{ order_ref: number; line: number; qty: number }>`SELECT order_ref, line, qty
      FROM order_lines`
    const orders = yield* sql<{ id: number; order_id: string; status_id: number }>`SELECT id, order_id, status_id
      FROM orders`
    const twice = yield* sql<{ order_ref: number; waves: number }>`SELECT wo.order_ref,
        CAST(count(*) AS INTEGER) AS waves
      FROM wave_orders wo JOIN waves w ON w.id = wo.wave_id WHERE w.status_id <> 20
      GROUP BY wo.order_ref HAVING count(*) > 1`
    const waves = yield* sql<{ id: number; status_id: number }>`SELECT id, status_id FROM waves`

    const sum = <A>(rows: ReadonlyArray<A>, key: (row: A) => string | number, qty: (row: A) => number) => {
      const totals = new Map<string | number, number>()
      for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + qty(row))
      return totals
    }
    const open = claims.filter((claim) => claim.status === "allocated")
    const openByContent = sum(open, (c) => c.content_id, (c) => c.qty)
    const claimedByContent = sum(claims, (c) => c.content_id, (c) => c.qty)
    const ledgerByContent = sum(ledger, (t) => t.content_id, (t) => t.transaction_type === "Allocate" ? t.qty : -t.qty)
    for (const content of contents) {
      const id = content.content_id
      const openQty = openByContent.get(id) ?? 0
      const claimedQty = claimedByContent.get(id) ?? 0
      const held = content.qty_allocated + content.qty_tasked_from
      if (content.qty_allocated < 0 || content.qty_tasked_from < 0 || held > content.qty) {
        problems.push(`content ${id} breaks 0 ≤ allocated + tasked ≤ qty: ${JSON.stringify(content)}`)
      }
      if (content.qty_allocated !== openQty) {
        problems.push(`content ${id}: qty_allocated ${content.qty_allocated} but open claims sum to ${openQty}`)
      }
      if (claimedQty > (availableAtStart.get(id) ?? 0)) {
        problems.push(`content ${id}: claims sum to ${claimedQty}, only ${availableAtStart.get(id) ?? 0} was available`)
      }
      if ((ledgerByContent.get(id) ?? 0) !== openQty) {
        problems.push(`content ${id}: Allocate − Deallocate is ${ledgerByContent.get(id) ?? 0}, open claims ${openQty}`)
      }
      if (content.expiry_date !== null && content.expiry_date < "2020-01-01" && claimedQty > 0) {
        problems.push(`content ${id} is expired and claimed`)
      }
    }

    // One claim is one (wave, order, line, content): exactly one Allocate, and a Deallocate once released.
    const claimKey = (wave: number | string, orderId: string, line: number, content: number) =>
      `${wave}|${orderId}|${line}|${content}`
    const ledgerCounts = new Map<string, { allocate: Array<number>; deallocate: Array<number> }>()
    for (const t of ledger) {
      const key = claimKey(t.notes.replace(/^Wave /, ""), t.order_id, t.line_id, t.content_id)
      const entry = ledgerCounts.get(key) ?? { allocate: [], deallocate: [] }
      if (t.transaction_type === "Allocate") entry.allocate.push(t.qty)
      else entry.deallocate.push(t.qty)
      ledgerCounts.set(key, entry)
    }
    const openKeys = new Map(open.map((c) => [claimKey(c.wave_id, c.order_id, c.line_id, c.content_id), c]))
    if (openKeys.size !== open.length) problems.push("two open claims share a wave, order line and content")
    for (const [key, claim] of openKeys) {
      const entry = ledgerCounts.get(key)
      const once = entry !== undefined && entry.allocate.length === 1 && entry.deallocate.length === 0
      if (!once || entry.allocate[0] !== claim.qty) {
        problems.push(`open claim ${claim.id} (${key}, qty ${claim.qty}) has ledger ${JSON.stringify(entry)}`)
      }
    }
    for (const [key, entry] of ledgerCounts) {
      if (openKeys.has(key)) continue
      if (entry.allocate.length !== 1 || entry.deallocate.length !== 1 || entry.allocate[0] !== entry.deallocate[0]) {
        problems.push(`released claim ${key} has ledger ${JSON.stringify(entry)}`)
      }
    }

    const lineQty = new Map(lines.map((l) => [`${l.order_ref}|${l.line}`, l.qty]))
    for (const [key, claimed] of sum(claims, (c) => `${c.order_ref}|${c.line_id}`, (c) => c.qty)) {
      const ordered = lineQty.get(key as string)
      if (ordered === undefined) problems.push(`claims of order line ${key}, which does not exist`)
      else if (claimed > ordered) problems.push(`order line ${key}: ${claimed} claimed of ${ordered}`)
    }
    for (const row of twice) problems.push(`order ${row.order_ref} is in ${row.waves} unfinished waves`)

    // An order holds claims exactly when it is (partially) allocated; fully only when nothing is short.
    const claimedByOrder = sum(claims, (c) => c.order_ref, (c) => c.qty)
    const orderedByOrder = sum(lines, (l) => l.order_ref, (l) => l.qty)
    for (const order of orders) {
      const claimed = claimedByOrder.get(order.id) ?? 0
      const ordered = orderedByOrder.get(order.id) ?? 0
      const expected = claimed === 0 ? 14 : claimed === ordered ? 15 : 16
      if (order.status_id !== expected) {
        problems.push(`order ${order.order_id}: status ${order.status_id}, ${claimed} of ${ordered} claimed`)
      }
    }
    const waveIds = new Set(waves.map((w) => w.id))
    for (const claim of claims) {
      if (!waveIds.has(claim.wave_id)) problems.push(`claim ${claim.id} of wave ${claim.wave_id}, which is gone`)
    }
    for (const wave of waves) {
      if (wave.status_id === 14 && claims.some((c) => c.wave_id === wave.id)) {
        problems.push(`Released wave ${wave.id} has claims`)
      }
    }
    return problems
  })

const waveStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm

    // Scarce stock: each SKU has ~20 units to allocate (and an expired lot that must stay); the
    // orders want far more.
    for (const sku_id of skus) {
      must(204, yield* request(first, "POST", "/skus", { sku_id, description: `Article ${sku_id}` }), `sku ${sku_id}`)
      const lots: Array<[string, number, string | null]> = [
        ["A", 4 + Math.floor(next() * 5), "2099-03-01"],
        ["B", 4 + Math.floor(next() * 5), "2099-01-01"],
        ["C", 4 + Math.floor(next() * 5), null],
        ["D", 4 + Math.floor(next() * 5), "2099-02-01"],
        ["X", 30, "2001-01-01"]
      ]
      for (const [lot, qty, expiry_date] of lots) {
        const adjusted = yield* request(first, "POST", "/inventory/adjustments", {
          sku_id,
          loc_id: `L-${sku_id}-${lot}`,
          tag_id: `T-${sku_id}-${lot}`,
          expiry_date,
          qty
        })
        must(204, adjusted, `stock of ${sku_id}`)
      }
    }
    const orders: Array<OrderSeed> = []
    for (let group = 0; group < dateGroups; group++) {
      for (let n = 0; n < ordersPerGroup; n++) {
        const chosen = skus.filter(() => next() < 0.5)
        const lines = (chosen.length === 0 ? [pick(skus)] : chosen).map((sku_id) => ({
          sku_id,
          qty: 1 + Math.floor(next() * 5)
        }))
        orders.push({ order_id: `CO-${group}-${n}`, order_date: orderDate(group), lines })
      }
    }
    for (const order of orders) must(204, yield* request(first, "POST", "/orders", order), `order ${order.order_id}`)
    const definition = (body: Record<string, unknown>) =>
      Effect.gen(function*() {
        must(204, yield* request(first, "POST", "/wave-definitions", body), "wave definition")
        const list = yield* request(first, "GET", "/wave-definitions")
        return list.body[list.body.length - 1].id as number
      })
    // One definition per order date (disjoint orders, shared SKUs), and two that take whatever is left.
    const byDate: Array<number> = []
    for (let group = 0; group < dateGroups; group++) {
      byDate.push(
        yield* definition({
          description: `Date ${group}`,
          criterium_id: 3,
          value: dutchDate(orderDate(group)),
          pick_type: (group % 4) + 1
        })
      )
    }
    const definitions = [
      ...byDate,
      yield* definition({ description: "All", criterium_id: 5, pick_type: 2 }),
      yield* definition({ description: "All, started", criterium_id: 5, pick_type: 1, autostart: true })
    ]
    const waveIds: Array<number> = []
    for (const id of byDate) {
      const created = yield* request(first, "POST", "/waves/create", { wavedef_id: id })
      must(200, created, "wave create")
      waveIds.push(created.body.wave_id)
    }

    const withSql = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provide(effect, storeSql(database)).pipe(Effect.orDie)
    const availableAtStart = yield* withSql(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.map(
        sql<{ content_id: number; available: number }>`SELECT content_id,
          qty - qty_allocated - qty_tasked_from AS available FROM contents`,
        (rows) => new Map(rows.map((row) => [row.content_id, Number(row.available)]))
      )))

    // Every wave started on two processes at the same moment: one start wins, the other is a 409.
    const burst = yield* Effect.all(
      waveIds.flatMap((waveId, i) =>
        [i % processes, (i + 1) % processes].map((s) =>
          Effect.map(
            request(servers[s], "POST", "/waves/start", { wave_id: waveId }),
            (result) => ({ waveId, result: record("start", s, "POST /waves/start", result) })
          )
        )
      ),
      { concurrency: "unbounded" }
    )
    const doubleStarts = waveIds.map((waveId) => ({
      waveId,
      statuses: burst.filter((b) => b.waveId === waveId).map((b) => b.result.status).sort()
    }))

    const deleted = new Set<string>()
    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          if (roll < 0.3) {
            const started = yield* request(server, "POST", "/waves/start", { wave_id: pick(waveIds) })
            record("start", s, "POST /waves/start", started)
          } else if (roll < 0.45) {
            const waveId = pick(waveIds)
            const removed = yield* request(server, "DELETE", `/waves/${waveId}`)
            record("deleteWave", s, `DELETE /waves/${waveId}`, removed)
          } else if (roll < 0.65) {
            const { order_id } = pick(orders)
            const removed = yield* request(server, "DELETE", `/orders/${order_id}`)
            if (record("deleteOrder", s, `DELETE /orders/${order_id}`, removed).status === 204) deleted.add(order_id)
          } else if (roll < 0.75 && deleted.size > 0) {
            // A deleted order comes back, Released, to be taken by a later wave.
            const orderId = pick([...deleted])
            const order = orders.find((o) => o.order_id === orderId)!
            const recreated = yield* request(server, "POST", "/orders", order)
            if (record("createOrder", s, "POST /orders", recreated).status === 204) deleted.delete(orderId)
          } else {
            const created = yield* request(server, "POST", "/waves/create", { wavedef_id: pick(definitions) })
            if (record("createWave", s, "POST /waves/create", created).status !== 200) continue
            waveIds.push(created.body.wave_id)
            if (next() < 0.5) {
              const started = yield* request(server, "POST", "/waves/start", { wave_id: created.body.wave_id })
              record("start", s, "POST /waves/start", started)
            }
          }
        }
      })
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )

    // Last, allocated orders are deleted at the moment their waves are, next to a new wave.
    const allocated = yield* withSql(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ order_id: string; wave_id: number }>`SELECT DISTINCT order_id, wave_id FROM claims
        ORDER BY wave_id, order_id`))
    yield* Effect.all(
      allocated.slice(0, 8).flatMap(({ order_id, wave_id }, i) => [
        Effect.map(
          request(servers[i % processes], "DELETE", `/orders/${order_id}`),
          (result) =>
            record("deleteOrder", i % processes, `DELETE /orders/${order_id}`, result)
        ),
        Effect.map(
          request(servers[(i + 1) % processes], "DELETE", `/waves/${wave_id}`),
          (result) => record("deleteWave", (i + 1) % processes, `DELETE /waves/${wave_id}`, result)
        ),
        Effect.map(
          request(servers[(i + 2) % processes], "POST", "/waves/create", { wavedef_id: definitions[dateGroups + 1] }),
          (result) => record("createWave", (i + 2) % processes, "POST /waves/create", result)
        )
      ]),
      { concurrency: "unbounded" }
    )

    const problems = yield* withSql(violations(availableAtStart))
    const summary = storm.summary()
    assertStormHeld(storm, problems, summary)
    for (const { statuses, waveId } of doubleStarts) {
      assert.deepStrictEqual(statuses, [200, 409], `the two simultaneous starts of wave ${waveId}`)
    }
    // The storm did race: waves were started and deleted, and allocated orders were deleted.
    for (const done of raced) assert.isAbove(tally.get(done) ?? 0, 0, summary)
  })

describe("waves across 3 server processes on one database", () => {
  it.live(
    "PostgreSQL: overlapping starts and deletes never allocate a unit twice",
    () => Effect.flatMap(freshPgDatabase, (url) => waveStorm({ kind: "pg", url })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )

  it.live(
    "SQLite: overlapping starts and deletes never allocate a unit twice",
    () => Effect.flatMap(freshSqliteFile, (filename) => waveStorm({ kind: "sqlite", filename })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )
})
