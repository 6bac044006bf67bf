/**
 * The repositories' statement helpers on both stores: results in the shapes they promise, the key
 * an insert generated, and every store failure a defect.
 */
import { SqlClient, SqlError } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { PgStore } from "@wms/sql-pg"
import { SqliteStore } from "@wms/sql-sqlite"
import { Cause, Effect, Exit, Option } from "effect"
import { onBothStores } from "../../../testing/databases.js"
import { first, insertReturningKey, query, returnsRow, rows, run } from "../src/Query.js"

const stores = onBothStores((db) => db.kind === "sqlite" ? SqliteStore.layer(db) : PgStore.layer(db))

const scratch = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const key = sql.onDialectOrElse({
    pg: () => sql.literal("SERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })
  yield* sql`CREATE TABLE IF NOT EXISTS scratch_notes (note_id ${key}, topic TEXT NOT NULL, body TEXT NOT NULL)`
  return sql
})

const defectOf = (exit: Exit.Exit<unknown>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined

for (const [label, store] of stores) {
  layer(store, { timeout: 60_000 })(`statement helpers on ${label}`, (it) => {
    it.effect("answer rows, the first row, whether there was one, and the key an insert generated", () =>
      Effect.gen(function*() {
        const sql = yield* scratch
        const firstKey = yield* insertReturningKey(sql, "scratch_notes", { topic: "shapes", body: "a" }, "note_id")
        const secondKey = yield* insertReturningKey(sql, "scratch_notes", { topic: "shapes", body: "b" }, "note_id")
        assert.strictEqual(typeof firstKey, "number")
        assert.isAbove(secondKey, firstKey)
        const notes = sql<{ note_id: number; body: string }>`SELECT note_id, body FROM scratch_notes
          WHERE topic = 'shapes' ORDER BY note_id`
        assert.deepStrictEqual(yield* rows(notes), [
          { note_id: firstKey, body: "a" },
          { note_id: secondKey, body: "b" }
        ])
        assert.deepStrictEqual(yield* rows(notes, (note) => note.body), ["a", "b"])
        assert.deepStrictEqual(yield* first(notes, (note) => note.body), Option.some("a"))
        const none = sql<{ body: string }>`SELECT body FROM scratch_notes WHERE topic = 'none'`
        assert.deepStrictEqual(yield* first(none), Option.none())
        assert.isFalse(yield* returnsRow(none))
        const changed = sql`UPDATE scratch_notes SET body = 'c' WHERE note_id = ${secondKey} RETURNING note_id`
        assert.isTrue(yield* returnsRow(changed))
        yield* run(sql`DELETE FROM scratch_notes WHERE note_id = ${firstKey}`)
        assert.deepStrictEqual(yield* query(notes, (found) => found.length), 1)
      }))

    it.effect("turn every store failure into a defect", () =>
      Effect.gen(function*() {
        const sql = yield* scratch
        const missing = sql`SELECT * FROM no_such_table`
        const failures: Array<Exit.Exit<unknown>> = [
          yield* Effect.exit(query(missing)),
          yield* Effect.exit(rows(missing)),
          yield* Effect.exit(first(missing)),
          yield* Effect.exit(returnsRow(missing)),
          yield* Effect.exit(run(missing)),
          yield* Effect.exit(insertReturningKey(sql, "scratch_notes", { topic: null, body: "x" }, "note_id"))
        ]
        for (const exit of failures) assert.instanceOf(defectOf(exit), SqlError.SqlError)
      }))
  })
}
