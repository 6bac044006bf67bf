import { assert, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { EventPublisher, Site, SiteId, SiteRepository, Transactor, WaveRepository } from "@wms/core"
import { PgStore } from "@wms/sql-pg"
import { SqliteStore } from "@wms/sql-sqlite"
import { Effect } from "effect"
import { onBothStores } from "../../../testing/databases.js"

const stores = onBothStores((db) => db.kind === "sqlite" ? SqliteStore.layer(db) : PgStore.layer(db))

// Bulk inserts write full chunks (one cached statement text) and a last, shorter one: these sizes
// give two full chunks and a partial one on both tables.
const eventCount = 3_200 * 2 + 17
const claimsetCount = 4_000 * 2 + 5
const awkward = "it's \"quoted\" — and ünïcode"

for (const [label, store] of stores) {
  layer(store, { timeout: 60_000 })(`bulk inserts on ${label}`, (it) => {
    it.effect("publishAll writes every event once, in the order given", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { atomically } = yield* Transactor
        const events = yield* EventPublisher
        const sites = yield* SiteRepository
        yield* sites.insertSite(new Site({ site_id: SiteId.make("b1"), name: "B1", fulfillment: false }))
        yield* atomically(events.publishAll(Array.from({ length: eventCount }, (_, i) => ({
          event_type: "order_allocated" as const,
          site_id: "b1",
          client_id: null,
          data: { n: i, text: i % 2 === 0 ? awkward : null }
        }))))
        const rows = yield* sql<{ data: string; event_type: string }>`SELECT data, event_type FROM events
          WHERE site_id = 'b1' ORDER BY id`
        assert.strictEqual(rows.length, eventCount)
        rows.forEach((row, i) => {
          assert.strictEqual(row.event_type, "order_allocated")
          assert.deepStrictEqual(JSON.parse(row.data), { n: i, text: i % 2 === 0 ? awkward : null })
        })
      }))

    it.effect("insertClaimsets answers the id of each claimset in the order given", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { atomically } = yield* Transactor
        const waves = yield* WaveRepository
        const sites = yield* SiteRepository
        yield* sites.insertSite(new Site({ site_id: SiteId.make("b2"), name: "B2", fulfillment: false }))
        const sets = Array.from({ length: claimsetCount }, (_, i) => ({
          claimset_break: `B${i}`,
          pick_type: "Per order"
        }))
        const ids = yield* atomically(Effect.gen(function*() {
          const waveId = yield* waves.insert({
            site_id: SiteId.make("b2"),
            client_id: null,
            status_id: 14,
            criterium_id: 5,
            value: null,
            pick_type: 1,
            autostart: false,
            created_at: "2025-01-01T00:00:00.000Z",
            created_by: "u1"
          })
          return yield* waves.insertClaimsets(waveId, sets)
        }))
        assert.strictEqual(new Set(ids).size, claimsetCount)
        const rows = yield* sql<{ id: number; claimset_break: string }>`SELECT id, claimset_break FROM claimsets`
        const breakOf = new Map(rows.map((row) => [row.id, row.claimset_break]))
        ids.forEach((id, i) => assert.strictEqual(breakOf.get(id), `B${i}`))
      }))
  })
}
