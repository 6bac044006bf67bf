/**
 * The ports' writes and reads of many rows, on both stores, at sizes past their batches: bulk
 * inserts (`Batches.ts`) write full chunks and a last, shorter one; lists of ids go in chunks or
 * as one parameter. Each stays under the dialects' limits on bound parameters (SQLite 32766,
 * PostgreSQL 65535) and loses, doubles or reorders nothing.
 */
import { SqlClient } from "@effect/sql"
import { assert } from "@effect/vitest"
import {
  EventPublisher,
  InventoryRepository,
  OrderRepository,
  type Owner,
  PreAdviceRepository,
  type StatusId,
  Transactor,
  UserId,
  WaveRepository,
  WebhookRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import { assertDies, insertContent, insertOrder, insertWave, makeTenants, onEachStore } from "./Contract.js"

// Rows per statement of each bulk insert (16,000 parameters over its columns), and of id lists.
const eventsPerStatement = 3_200
const claimsetsPerStatement = 4_000
const claimsPerStatement = 1_000
const ledgerEntriesPerStatement = 1_142
const waveOrdersPerStatement = 8_000
const allocationsPerStatement = 8_000
const idsPerStatement = 5_000
const preAdviceRowsPerStatement = 500

/** Two full chunks and a shorter one. */
const past = (perStatement: number) => perStatement * 2 + 17

const awkward = "it's \"quoted\" — and ünïcode"

/** The numbers 1 to `count` as the rows of `numbers (n)`, to write many rows straight into a table. */
const numbers = (sql: SqlClient.SqlClient, count: number) =>
  sql`WITH RECURSIVE numbers (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM numbers WHERE n < ${count})`

/** Writes Released orders `B1`, `B2`, … of the owner's site, with no lines; yields their keys in order. */
const insertOrders = (owner: Owner, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`${numbers(sql, count)}
      INSERT INTO orders (site_id, client_id, order_id, status_id, created_at, created_by)
      SELECT ${owner.site_id}, NULL, 'B' || n, 14, '2030-01-01T08:00:00.000Z', 'tester' FROM numbers`
    const rows = yield* sql<{ id: number }>`SELECT id FROM orders WHERE site_id = ${owner.site_id} ORDER BY id`
    return rows.map((row) => row.id)
  }).pipe(Effect.orDie)

/** Writes contents of 10 units of SKUs `S1`, `S2`, … of the owner's site; yields their ids in order. */
const insertContents = (owner: Owner, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`${numbers(sql, count)} INSERT INTO contents (site_id, client_id, sku_id, loc_id, tag_id, qty, created_at)
      SELECT ${owner.site_id}, NULL, 'S' || n, 'A-01', 'T' || n, 10, '2030-01-01T08:00:00.000Z' FROM numbers`
    const rows = yield* sql<{ content_id: number }>`SELECT content_id FROM contents
      WHERE site_id = ${owner.site_id} ORDER BY content_id`
    return rows.map((row) => row.content_id)
  }).pipe(Effect.orDie)

/** Writes SKUs `K1`, `K2`, … of the owner's site. */
const insertSkus = (owner: Owner, count: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`${numbers(sql, count)} INSERT INTO skus
        (site_id, sku_id, client_id, description, expiry_sku, obsolete, new, pick_method)
      SELECT ${owner.site_id}, 'K' || n, NULL, 'K', 0, 0, 0, 1 FROM numbers`).pipe(Effect.orDie)

onEachStore("batches", (it) => {
  it.effect("publishAll writes every event once, in the order given", () =>
    Effect.gen(function*() {
      const { atomically } = yield* Transactor
      const events = yield* EventPublisher
      const webhooks = yield* WebhookRepository
      const t = yield* makeTenants
      const count = past(eventsPerStatement)
      yield* atomically(events.publishAll(Array.from({ length: count }, (_, i) => ({
        event_type: "order_allocated" as const,
        site_id: t.site.owner.site_id,
        client_id: i % 3 === 0 ? t.client1.owner.client_id : null,
        data: { n: i, text: i % 2 === 0 ? awkward : null }
      }))))
      const written = yield* webhooks.eventsBetween(0, 2147483647, 2147483647)
      const ofSite = written.filter((event) => event.site_id === t.site.owner.site_id)
      assert.strictEqual(ofSite.length, count)
      ofSite.forEach((event, i) => {
        assert.strictEqual(event.event_type, "order_allocated")
        assert.strictEqual(event.client_id, i % 3 === 0 ? t.client1.owner.client_id : null)
        assert.deepStrictEqual(JSON.parse(event.data), { n: i, text: i % 2 === 0 ? awkward : null })
      })
    }))

  it.effect("insertClaimsets answers the id of each claimset in the order given", () =>
    Effect.gen(function*() {
      const { atomically } = yield* Transactor
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const count = past(claimsetsPerStatement)
      const sets = Array.from({ length: count }, (_, i) => ({ claimset_break: `B${i}`, pick_type: "Per order" }))
      const [wave, ids] = yield* atomically(Effect.gen(function*() {
        const wave = yield* insertWave(t.site.owner)
        return [wave, yield* waves.insertClaimsets(wave, sets)] as const
      }))
      assert.strictEqual(new Set(ids).size, count)
      const breakOf = new Map((yield* waves.claimsets(wave)).map((row) => [row.id, row.claimset_break]))
      ids.forEach((id, i) => assert.strictEqual(breakOf.get(id), `B${i}`))
    }))

  it.effect("attachOrders, setOrderStatuses and findMany take every order of a wave of thousands", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const refs = yield* insertOrders(t.site.owner, Math.max(past(waveOrdersPerStatement), past(idsPerStatement)))
      const wave = yield* insertWave(t.site.owner)
      yield* waves.attachOrders(wave, refs)
      assert.strictEqual((yield* waves.totals(wave)).order_count, refs.length)
      assert.strictEqual((yield* waves.orders(wave)).length, refs.length)

      const statuses = new Map(refs.map((ref, i): [number, StatusId] => [ref, i % 2 === 0 ? 15 : 16]))
      yield* waves.setOrderStatuses(statuses)
      // Out of order, and one key twice where a chunk of the sorted keys ends.
      const found = yield* orders.findMany([...refs].reverse().concat([refs[idsPerStatement - 1]]))
      assert.deepStrictEqual(found.map((order) => order.header.ref), refs)
      found.forEach((order) => assert.strictEqual(order.header.status_id, statuses.get(order.header.ref)))
    }))

  it.effect("insertClaims, lockClaims and deleteClaims write, lock and delete thousands of claims", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const { atomically } = yield* Transactor
      const t = yield* makeTenants
      const order = yield* insertOrder(t.site.owner, "CLAIMED", [["A", 1]])
      const content = yield* insertContent(t.site.owner, { sku_id: "A", qty: 1 })
      const wave = yield* insertWave(t.site.owner)
      const [claimset] = yield* waves.insertClaimsets(wave, [{ claimset_break: "all", pick_type: "Per order" }])
      const count = Math.max(past(claimsPerStatement), past(idsPerStatement))
      yield* waves.insertClaims(Array.from({ length: count }, (_, i) => ({
        ...t.site.owner,
        wave_id: wave,
        claimset_id: claimset,
        content_id: content,
        order_ref: order,
        order_id: "CLAIMED",
        line_id: i + 1,
        sku_id: "A",
        qty: 1,
        status: "allocated" as const,
        tag_id: awkward,
        from_loc_id: "A-01",
        to_loc_id: "DOCK",
        final_loc_id: "DOCK",
        created_at: "2030-01-01T09:30:00.000Z"
      })))
      const claims = yield* waves.claims(wave)
      assert.deepStrictEqual(claims.map((claim) => claim.line_id), Array.from({ length: count }, (_, i) => i + 1))
      assert.isTrue(claims.every((claim) => claim.tag_id === awkward))
      assert.deepStrictEqual(yield* atomically(waves.lockClaims({ waveId: wave })), claims)
      assert.strictEqual((yield* waves.totals(wave)).qty_allocated, count)

      yield* waves.deleteClaims(claims.map((claim) => claim.id))
      assert.deepStrictEqual(yield* waves.claims(wave), [])
      assert.deepStrictEqual(yield* waves.claimsets(wave), [])
    }))

  it.effect("appendTransactions writes every entry once, in the order given", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 1 })
      const count = past(ledgerEntriesPerStatement)
      yield* inventory.appendTransactions(Array.from({ length: count }, (_, i) => ({
        ...t.client1.owner,
        created_at: "2030-01-01T10:00:00.000Z",
        transaction_type: "Adjustment" as const,
        content_id: content,
        from_loc_id: "A-01",
        to_loc_id: "A-01",
        final_loc_id: "A-01",
        sku_id: "A",
        qty: i % 2 === 0 ? i : -i,
        tag_id: "T1",
        order_id: null,
        line_id: i,
        notes: i % 2 === 0 ? awkward : null,
        from_content_id: null,
        reason_code: i % 2 === 0 ? awkward : null
      })))
      const ledger = yield* inventory.listTransactions(t.client1.scope)
      assert.deepStrictEqual(ledger.map((entry) => entry.line_id), Array.from({ length: count }, (_, i) => i))
      ledger.forEach((entry, i) => {
        assert.strictEqual(entry.qty, i % 2 === 0 ? i : -i)
        assert.strictEqual(entry.notes, i % 2 === 0 ? awkward : null)
      })
    }))

  it.effect("bulk inserts of any count write each row once, in order: full chunks, powers of two, the few left", () =>
    Effect.gen(function*() {
      const { atomically } = yield* Transactor
      const inventory = yield* InventoryRepository
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 1 })
      const wave = yield* insertWave(t.site.owner)
      let written = 0
      for (const count of [1, 3, 16, 37, 255, claimsPerStatement + 37]) {
        yield* inventory.appendTransactions(Array.from({ length: count }, (_, i) => ({
          ...t.client1.owner,
          created_at: "2030-01-01T10:00:00.000Z",
          transaction_type: "Adjustment" as const,
          content_id: content,
          from_loc_id: "A-01",
          to_loc_id: "A-01",
          final_loc_id: "A-01",
          sku_id: "A",
          qty: 1,
          tag_id: "T1",
          order_id: null,
          line_id: written + i,
          notes: null,
          from_content_id: null,
          reason_code: null
        })))
        const breaks = Array.from({ length: count }, (_, i) => `C${written + i}`)
        const ids = yield* atomically(
          waves.insertClaimsets(wave, breaks.map((claimset_break) => ({ claimset_break, pick_type: "Per order" })))
        )
        const breakOf = new Map((yield* waves.claimsets(wave)).map((row) => [row.id, row.claimset_break]))
        assert.deepStrictEqual(ids.map((id) => breakOf.get(id)), breaks)
        assert.deepStrictEqual([...ids].sort((a, b) => a - b), ids)
        written += count
      }
      const ledger = yield* inventory.listTransactions(t.client1.scope)
      assert.deepStrictEqual(ledger.map((entry) => entry.line_id), Array.from({ length: written }, (_, i) => i))
    }))

  it.effect("changeAllocation changes thousands of contents, or none; lockStock takes thousands of SKUs", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const waves = yield* WaveRepository
      const { atomically } = yield* Transactor
      const t = yield* makeTenants
      const count = past(allocationsPerStatement)
      const contents = yield* insertContents(t.site.owner, count)
      const skuIds = Array.from({ length: past(idsPerStatement) }, (_, i) => `S${i + 1}`)
      const stock = yield* atomically(waves.lockStock(t.site.owner.site_id, skuIds))
      assert.deepStrictEqual(stock.map((s) => s.content_id), contents.slice(0, skuIds.length))

      yield* atomically(inventory.changeAllocation(new Map(contents.map((id, i) => [id, 1 + (i % 9)]))))
      const allocated = yield* inventory.listContents(t.site.scope)
      assert.deepStrictEqual(allocated.map((c) => c.qty_allocated), contents.map((_, i) => 1 + (i % 9)))
      // One content of the last chunk cannot take it: the chunks before it are undone too.
      const refused = new Map(contents.map((id, i) => [id, i === count - 1 ? 10 : -1]))
      yield* assertDies(atomically(inventory.changeAllocation(refused)))
      assert.deepStrictEqual(yield* inventory.listContents(t.site.scope), allocated)
    }))

  it.effect("pre-advice lines and SKU look-ups take thousands of rows", () =>
    Effect.gen(function*() {
      const preAdvices = yield* PreAdviceRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const ref = Option.getOrThrow(
        yield* preAdvices.insert({
          site_id: t.site.owner.site_id,
          pre_advice_id: "MANY",
          client_id: null,
          status_id: 1,
          supplier_id: null,
          created_at: "2030-01-01T08:00:00.000Z",
          created_by: UserId.make("tester")
        })
      )
      const count = past(preAdviceRowsPerStatement)
      const lines = Array.from({ length: count }, (_, i) => ({
        line: i + 1,
        sku_id: `K${i + 1}`,
        qty: i + 1,
        pallet_id: i % 2 === 0 ? null : awkward,
        client_id: null
      }))
      assert.strictEqual((yield* preAdvices.insertLines(ref, lines)).length, count)
      assert.deepStrictEqual(yield* preAdvices.insertLines(ref, lines), [])
      assert.deepStrictEqual(
        yield* preAdvices.lines(ref, {}),
        lines.map((line) => ({ ...line, qty_received: 0, tag_id: null, expiry_date: null, qty_lost: null }))
      )

      yield* insertSkus(t.site.owner, count)
      const asked = [...lines.map((line) => line.sku_id), ...Array.from({ length: 40_000 }, (_, i) => `Z${i}`)]
      const expected = new Set(lines.map((line) => line.sku_id))
      assert.deepStrictEqual(yield* preAdvices.visibleSkus(t.site.scope, asked), expected)
      assert.deepStrictEqual(yield* orders.visibleSkus(t.site.scope, asked), expected)
    }))

  it.effect("insertLines writes tens of thousands of order lines in one go", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const ref = yield* insertOrder(t.site.owner, "LONG", [])
      const lines = Array.from({ length: 20_000 }, (_, i) => ({
        line: i + 1,
        sku_id: i % 2 === 0 ? awkward : `${i}`,
        qty: i + 1
      }))
      assert.deepStrictEqual(yield* orders.insertLines(ref, lines), [])
      assert.deepStrictEqual(yield* orders.insertLines(ref, lines.slice(0, 3)), [1, 2, 3])
      const stored = Option.getOrThrow(yield* orders.find(t.site.scope, "LONG"))
      assert.deepStrictEqual(
        stored.lines,
        lines.map((line) => ({ ...line, qty_picked: 0, qty_shipped: 0, qty_backordered: 0 }))
      )
    }))
})
