/**
 * The SQLite store's `Transactor`: one transaction per outermost `atomically`, savepoints inside it,
 * everything undone by a failure, a defect or an interruption, and the connection free afterwards.
 */
import { assert, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Transactor } from "@wms/core"
import { SqliteStore } from "@wms/sql-sqlite"
import { Deferred, Effect, Exit, Fiber, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"

const store = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => SqliteStore.layer({ filename })))

const notes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, topic TEXT NOT NULL, body TEXT NOT NULL)`
  return {
    add: (topic: string, body: string) => sql`INSERT INTO notes (topic, body) VALUES (${topic}, ${body})`.pipe(Effect.orDie),
    of: (topic: string) =>
      Effect.map(
        sql<{ body: string }>`SELECT body FROM notes WHERE topic = ${topic} ORDER BY id`.pipe(Effect.orDie),
        (rows) => rows.map((row) => row.body)
      )
  }
})

layer(store, { timeout: 60_000 })("the SQLite transactor", (it) => {
  it.effect("commits a success and undoes a failure or a defect", () =>
    Effect.gen(function*() {
      const { add, of } = yield* notes
      const { atomically } = yield* Transactor
      yield* atomically(add("outcome", "committed"))
      assert.strictEqual(yield* Effect.flip(atomically(Effect.zipRight(add("outcome", "failed"), Effect.fail("no")))), "no")
      const died = yield* Effect.exit(atomically(Effect.zipRight(add("outcome", "died"), Effect.die("boom"))))
      assert.isTrue(Exit.isFailure(died))
      assert.deepStrictEqual(yield* of("outcome"), ["committed"])
    }))

  it.effect("makes an inner atomically a savepoint: its failure undoes its own writes only", () =>
    Effect.gen(function*() {
      const { add, of } = yield* notes
      const sql = yield* SqlClient.SqlClient
      const { atomically } = yield* Transactor
      yield* atomically(Effect.gen(function*() {
        yield* add("nested", "outer")
        yield* Effect.ignore(atomically(Effect.zipRight(add("nested", "inner"), Effect.fail("no"))))
        yield* atomically(add("nested", "second inner"))
        // @effect/sql's own transactions join ours the same way.
        yield* sql.withTransaction(add("nested", "template"))
      }))
      assert.deepStrictEqual(yield* of("nested"), ["outer", "second inner", "template"])
    }))

  it.effect("undoes an interrupted transaction and frees the connection for the next", () =>
    Effect.gen(function*() {
      const { add, of } = yield* notes
      const { atomically } = yield* Transactor
      const written = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(atomically(Effect.gen(function*() {
        yield* add("interrupted", "written")
        yield* Deferred.succeed(written, undefined)
        return yield* Effect.never
      })))
      yield* Deferred.await(written)
      yield* Fiber.interrupt(fiber)
      yield* atomically(add("interrupted", "next"))
      assert.deepStrictEqual(yield* of("interrupted"), ["next"])
    }))

  it.effect("gives the fiber its context back after a transaction, whatever its end", () =>
    Effect.gen(function*() {
      const { add, of } = yield* notes
      const { atomically } = yield* Transactor
      const inTransaction = Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), (open) => open._tag === "Some")
      assert.isTrue(yield* atomically(inTransaction))
      assert.isFalse(yield* inTransaction)
      yield* Effect.ignore(atomically(Effect.zipRight(inTransaction, Effect.fail("no"))))
      assert.isFalse(yield* inTransaction)
      yield* Effect.exit(atomically(Effect.die("boom")))
      assert.isFalse(yield* inTransaction)
      // A statement after the transaction runs on its own, not in a transaction left behind.
      yield* add("after", "written")
      assert.deepStrictEqual(yield* of("after"), ["written"])
    }))

  it.effect("runs two fibers' transactions one after the other", () =>
    Effect.gen(function*() {
      const { add, of } = yield* notes
      const { atomically } = yield* Transactor
      const bodies = Array.from({ length: 20 }, (_, i) => `${i}`)
      yield* Effect.forEach(
        bodies,
        (body) => atomically(Effect.gen(function*() {
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
