/**
 * `Prepared` on the SQLite store: statements join the transaction of their fiber, wait for another
 * fiber's, and fail with `SqlError`.
 */
import { assert, layer } from "@effect/vitest"
import { SqlClient, SqlError } from "@effect/sql"
import { OrderRepository, Transactor } from "@wms/core"
import { Prepared } from "@wms/sql"
import { SqliteStore } from "@wms/sql-sqlite"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, Option, TestServices } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"

const store = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => SqliteStore.layer({ filename })))

const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, topic TEXT NOT NULL, body TEXT NOT NULL)`
  const { prepare } = yield* Prepared.Prepared
  return {
    insert: prepare<never>("INSERT INTO notes (topic, body) VALUES (?, ?)"),
    insertReturning: prepare<{ id: number }>("INSERT INTO notes (topic, body) VALUES (?, ?) RETURNING id"),
    bodies: (topic: string) =>
      Effect.map(
        prepare<{ body: string }>("SELECT body FROM notes WHERE topic = ? ORDER BY id")([topic]),
        (rows) => rows.map((row) => row.body)
      )
  }
})

layer(store, { timeout: 60_000 })("Prepared on SQLite", (it) => {
  it.effect("yields the rows of a reader and none for a write without RETURNING", () =>
    Effect.gen(function*() {
      const notes = yield* setup
      assert.deepStrictEqual(yield* notes.insert(["rows", "a"]), [])
      const [row] = yield* notes.insertReturning(["rows", "b"])
      assert.strictEqual(typeof row.id, "number")
      assert.deepStrictEqual(yield* notes.bodies("rows"), ["a", "b"])
    }))

  it.effect("runs in the fiber's transaction: its writes are seen there and undone by a failure", () =>
    Effect.gen(function*() {
      const notes = yield* setup
      const sql = yield* SqlClient.SqlClient
      const { atomically } = yield* Transactor
      const failure = yield* atomically(Effect.gen(function*() {
        yield* notes.insert(["rollback", "prepared"])
        yield* sql`INSERT INTO notes (topic, body) VALUES ('rollback', 'template')`
        assert.deepStrictEqual(yield* notes.bodies("rollback"), ["prepared", "template"])
        return yield* Effect.fail("boom" as const)
      })).pipe(Effect.flip)
      assert.strictEqual(failure, "boom")
      assert.deepStrictEqual(yield* notes.bodies("rollback"), [])

      yield* atomically(notes.insert(["commit", "kept"]))
      assert.deepStrictEqual(yield* notes.bodies("commit"), ["kept"])
    }))

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

  it.effect("fails with SqlError, which the repositories turn into a defect", () =>
    Effect.gen(function*() {
      const notes = yield* setup
      const { prepare } = yield* Prepared.Prepared
      const unknownTable = yield* prepare("SELECT * FROM nowhere")([]).pipe(Effect.flip)
      assert.instanceOf(unknownTable, SqlError.SqlError)
      const nullBody = yield* notes.insert(["errors", null]).pipe(Effect.flip)
      assert.instanceOf(nullBody, SqlError.SqlError)
      assert.match(nullBody.message, /execute/)

      const orders = yield* OrderRepository
      // No order 999999: the foreign key refuses the line.
      const exit = yield* Effect.exit(orders.insertLines(999_999, [{ line: 1, sku_id: "A", qty: 1 }]))
      assert.isTrue(Exit.isFailure(exit) && Cause.isDie(exit.cause))
    }))
})
