/**
 * What only the SQLite store's `Transactor` does: transactions of several fibers run one after the
 * other. What both stores' transactors do is in packages/sql/test/contract/Transactions.contract.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Transactor } from "@wms/core"
import { SqliteStore } from "@wms/sql-sqlite"
import { Effect, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"

const store = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => SqliteStore.layer({ filename })))

const notes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, topic TEXT NOT NULL, body TEXT NOT NULL)`
  return {
    add: (topic: string, body: string) =>
      sql`INSERT INTO notes (topic, body) VALUES (${topic}, ${body})`.pipe(Effect.orDie),
    of: (topic: string) =>
      Effect.map(
        sql<{ body: string }>`SELECT body FROM notes WHERE topic = ${topic} ORDER BY id`.pipe(Effect.orDie),
        (rows) => rows.map((row) => row.body)
      )
  }
})

layer(store, { timeout: 60_000 })("the SQLite transactor", (it) => {
  it.effect("runs two fibers' transactions one after the other", () =>
    Effect.gen(function*() {
      const { add, of } = yield* notes
      const { atomically } = yield* Transactor
      const bodies = Array.from({ length: 20 }, (_, i) => `${i}`)
      yield* Effect.forEach(
        bodies,
        (body) =>
          atomically(Effect.gen(function*() {
            const seen = (yield* of("serial")).length
            yield* Effect.yieldNow()
            yield* add("serial", `${body}:${seen}`)
          })),
        { concurrency: "unbounded" }
      )
      const rows = yield* of("serial")
      // Each saw every write committed before it: no two ran at once.
      assert.deepStrictEqual(rows.map((row) => Number(row.split(":")[1])), bodies.map((_, i) => i))
    }))
})
