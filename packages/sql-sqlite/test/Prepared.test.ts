/**
 * What only the SQLite store's `Prepared` statements do: outside a transaction, one waits for
 * another fiber's transaction to end. What both stores' statements do is in
 * packages/sql/test/contract/Transactions.contract.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Transactor } from "@wms/core"
import { Prepared } from "@wms/sql"
import { SqliteStore } from "@wms/sql-sqlite"
import { Deferred, Effect, Fiber, Layer, Option, TestServices } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"

const store = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => SqliteStore.layer({ filename })))

const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, topic TEXT NOT NULL, body TEXT NOT NULL)`
  const { prepare } = yield* Prepared.Prepared
  return {
    insert: prepare<never>("INSERT INTO notes (topic, body) VALUES (?, ?)"),
    bodies: (topic: string) =>
      Effect.map(
        prepare<{ body: string }>("SELECT body FROM notes WHERE topic = ? ORDER BY id")([topic]),
        (rows) => rows.map((row) => row.body)
      )
  }
})

layer(store, { timeout: 60_000 })("Prepared on SQLite", (it) => {
  it.effect("outside a transaction, waits for another fiber's to end instead of reading its writes", () =>
    Effect.gen(function*() {
      const notes = yield* setup
      const { atomically } = yield* Transactor
      const written = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const writer = yield* Effect.fork(atomically(Effect.gen(function*() {
        yield* notes.insert(["pending", "first"])
        yield* Deferred.succeed(written, undefined)
        yield* Deferred.await(release)
        yield* notes.insert(["pending", "second"])
      })))
      yield* Deferred.await(written)
      const reader = yield* Effect.fork(notes.bodies("pending"))
      // Real time, for the reader to read what it must not.
      yield* TestServices.provideLive(Effect.sleep("50 millis"))
      assert.isTrue(Option.isNone(yield* Fiber.poll(reader)))
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(writer)
      assert.deepStrictEqual(yield* Fiber.join(reader), ["first", "second"])
    }))
})
