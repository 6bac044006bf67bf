/**
 * What only the PostgreSQL store's prepared statements and transactions do: PostgreSQL's own
 * value types, statements named per session, reads that never wait for a writer, cursors, and a
 * pool that stays whole whatever ends a transaction. What both stores do is in
 * packages/sql/test/contract/Transactions.contract.test.ts.
 */
import { SqlClient, SqlError } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Transactor } from "@wms/core"
import { Prepared } from "@wms/sql"
import { Cause, Chunk, Context, Deferred, Effect, Exit, Fiber, Layer, Option, Stream } from "effect"
import { freshPgDatabase } from "../../../testing/databases.js"
import * as PgPool from "../src/PgPool.js"
import * as PgPrepared from "../src/PgPrepared.js"
import * as PgTransactor from "../src/PgTransactor.js"

// The store's parts that PgStore keeps to itself, with the pool exposed to be watched.
const store = Layer.unwrapScoped(
  Effect.map(freshPgDatabase, (url) =>
    Layer.mergeAll(PgPrepared.layer, PgTransactor.layer).pipe(
      Layer.provideMerge(PgPool.client),
      Layer.provideMerge(PgPool.layer({ url, maxConnections: 3 })),
      Layer.orDie
    ))
)

const boom = "boom"

const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined

// What a statement sees with no transaction open, whatever the caller's is.
const outsideTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapInputContext(
    effect,
    (context: Context.Context<R>) => Context.omit(SqlClient.TransactionConnection)(context) as Context.Context<R>
  )

const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const prepared = yield* Prepared.Prepared
  const { atomically } = yield* Transactor
  const pool = yield* PgPool.PgPool
  yield* sql`CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, note TEXT NOT NULL)`
  yield* sql`TRUNCATE scratch`
  const insert = prepared.prepare("INSERT INTO scratch (id, note) VALUES (?, ?)")
  const find = prepared.prepare<{ id: number; note: string }>("SELECT id, note FROM scratch WHERE id = ?")
  return { sql, prepared, atomically, pool, insert, find }
})

// No client checked out, none waiting, and no session of this database left inside a transaction.
const assertSettled = Effect.gen(function*() {
  const { pool, sql } = yield* setup
  assert.strictEqual(pool.waitingCount, 0)
  assert.strictEqual(pool.idleCount, pool.totalCount)
  const [{ open }] = yield* sql<{ open: number }>`SELECT CAST(count(*) AS INTEGER) AS open FROM pg_stat_activity
    WHERE datname = current_database() AND state LIKE 'idle in transaction%'`
  assert.strictEqual(open, 0)
})

describe("PgPrepared", () => {
  // Live services: the interruption tests wait on the real clock.
  layer(store, { timeout: 60_000, excludeTestServices: true })(
    "prepared statements and transactions on PostgreSQL",
    (it) => {
      it.effect("gives the rows of a template statement, value for value", () =>
        Effect.gen(function*() {
          const { prepared, sql } = yield* setup
          const text = `SELECT 1 AS i, CAST(2 AS BIGINT) AS b, CAST(1.5 AS NUMERIC) AS n, 'x' AS t, true AS f,
          CAST('2024-01-02' AS DATE) AS d, CAST('2024-01-02T03:04:05Z' AS TIMESTAMPTZ) AS ts,
          CAST('{"a":[1]}' AS JSON) AS j, CAST(NULL AS TEXT) AS z, CAST(? AS INTEGER) AS p`
          const byPrepared = yield* prepared.prepare<Record<string, unknown>>(text)([7])
          const byTemplate = yield* sql.unsafe(Prepared.numberPlaceholders(text), [7])
          assert.deepStrictEqual(byPrepared, byTemplate)
          assert.strictEqual(byPrepared[0].b, "2")
        }))

      it.effect("hides an uncommitted write from a read outside its transaction", () =>
        Effect.gen(function*() {
          const { atomically, find, insert } = yield* setup
          yield* atomically(Effect.gen(function*() {
            yield* insert([1, "one"])
            assert.deepStrictEqual(yield* outsideTransaction(find([1])), [])
            assert.deepStrictEqual(yield* find([1]), [{ id: 1, note: "one" }])
          }))
          assert.deepStrictEqual(yield* find([1]), [{ id: 1, note: "one" }])
        }))

      it.effect("serves streams, values and raw results of template statements in a transaction", () =>
        Effect.gen(function*() {
          const { atomically, insert, sql } = yield* setup
          yield* atomically(Effect.gen(function*() {
            for (let id = 1; id <= 300; id++) yield* insert([id, `n${id}`])
            const streamed = yield* Stream.runCollect(sql<{ id: number }>`SELECT id FROM scratch ORDER BY id`.stream)
            assert.deepStrictEqual(
              Chunk.toReadonlyArray(streamed).map((row) => row.id),
              Array.from({ length: 300 }, (_, i) => i + 1)
            )
            assert.deepStrictEqual(yield* sql`SELECT id, note FROM scratch WHERE id = 7`.values, [[7, "n7"]])
            const raw = (yield* sql`UPDATE scratch SET note = 'x' WHERE id <= 10`.raw) as { rowCount: number }
            assert.strictEqual(raw.rowCount, 10)
          }))
        }))

      it.effect("runs both transactions of a deadlock to their end: the one PostgreSQL picks runs again", () =>
        Effect.gen(function*() {
          const { atomically, sql } = yield* setup
          yield* sql`INSERT INTO scratch (id, note) VALUES (1, 'a'), (2, 'b')`
          let runs = 0
          const bothLocked = yield* Deferred.make<void>()
          let locked = 0
          // Each takes one row, waits until the other holds its row, then asks for the other's.
          const crossing = (first: number, second: number) =>
            atomically(Effect.gen(function*() {
              runs++
              yield* sql`UPDATE scratch SET note = note || '+' WHERE id = ${first}`
              if (++locked === 2) yield* Deferred.succeed(bothLocked, undefined)
              yield* Deferred.await(bothLocked)
              yield* sql`UPDATE scratch SET note = note || '+' WHERE id = ${second}`
            }))
          yield* Effect.all([crossing(1, 2), crossing(2, 1)], { concurrency: 2 })
          assert.strictEqual(runs, 3)
          const notes = yield* sql<{ note: string }>`SELECT note FROM scratch ORDER BY id`
          assert.deepStrictEqual(notes.map((row) => row.note), ["a++", "b++"])
          yield* assertSettled
        }))

      it.effect("gives the client back after a defect or a failed statement, leaving no session in a transaction", () =>
        Effect.gen(function*() {
          const { atomically, find, insert, prepared } = yield* setup
          const died = yield* Effect.exit(atomically(Effect.zipRight(insert([1, "one"]), Effect.die(boom))))
          assert.strictEqual(defectOf(died), boom)
          assert.deepStrictEqual(yield* find([1]), [])
          yield* assertSettled
          const missing = prepared.prepare("SELECT * FROM no_such_table WHERE id = ?")
          assert.instanceOf(yield* Effect.flip(missing([1])), SqlError.SqlError)
          yield* insert([1, "one"])
          assert.instanceOf(yield* Effect.flip(atomically(insert([1, "again"]))), SqlError.SqlError)
          yield* assertSettled
        }))

      // A statement lets go of its parameters once pg has them: each run of one effect hands them anew.
      it.effect("runs one statement effect again with its parameters, on the pool and in a transaction", () =>
        Effect.gen(function*() {
          const { atomically, find, insert, sql } = yield* setup
          yield* insert([3, "three"])
          const findThree = find([3])
          const countAbove = sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM scratch WHERE id > ${2}`
          assert.deepStrictEqual(yield* findThree, [{ id: 3, note: "three" }])
          assert.deepStrictEqual(yield* findThree, [{ id: 3, note: "three" }])
          yield* atomically(Effect.gen(function*() {
            yield* insert([4, "four"])
            assert.deepStrictEqual(yield* findThree, [{ id: 3, note: "three" }])
            assert.deepStrictEqual(yield* findThree, [{ id: 3, note: "three" }])
            assert.deepStrictEqual(yield* countAbove, [{ n: 2 }])
            assert.deepStrictEqual(yield* countAbove, [{ n: 2 }])
          }))
        }))

      it.effect("prepares a statement by name on the transaction's own session", () =>
        Effect.gen(function*() {
          const { atomically, find, sql } = yield* setup
          yield* atomically(Effect.gen(function*() {
            yield* find([1])
            const [{ named }] = yield* sql<{ named: number }>`SELECT CAST(count(*) AS INTEGER) AS named
            FROM pg_prepared_statements WHERE statement = ${"SELECT id, note FROM scratch WHERE id = $1"}`
            assert.strictEqual(named, 1)
          }))
        }))

      it.effect("releases the client of an interrupted transaction at once, cancelling its statement", () =>
        Effect.gen(function*() {
          const { atomically, pool, prepared } = yield* setup
          const sleep = prepared.prepare("SELECT pg_sleep(?)")
          const fiber = yield* Effect.fork(atomically(sleep([30])))
          yield* Effect.sleep("300 millis")
          assert.strictEqual(pool.totalCount - pool.idleCount, 1)
          const started = Date.now()
          yield* Fiber.interrupt(fiber)
          assert.isBelow(Date.now() - started, 5_000)
          yield* assertSettled
        }))

      it.effect("keeps the pool usable after transactions interrupted while waiting for a client", () =>
        Effect.gen(function*() {
          const { atomically, find, pool, prepared } = yield* setup
          const sleep = prepared.prepare("SELECT pg_sleep(?)")
          const fibers = yield* Effect.forEach(Array.from({ length: 6 }), () => Effect.fork(atomically(sleep([30]))))
          yield* Effect.sleep("300 millis")
          assert.strictEqual(pool.totalCount, 3)
          yield* Fiber.interruptAll(fibers)
          yield* assertSettled
          assert.deepStrictEqual(yield* find([1]), [])
        }))
    }
  )
})
