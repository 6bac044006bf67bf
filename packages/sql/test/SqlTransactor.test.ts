/**
 * The transaction skeleton both stores share, on a store that records what it is asked to do:
 * begin, end and release once per outermost transaction whatever its end, savepoints inside it,
 * and the fiber's context set for the transaction and given back after it.
 */
import { SqlClient, type SqlConnection, SqlError } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { SqlTransactor } from "@wms/sql"
import { Cause, Deferred, Effect, Exit, Fiber, Option, Stream } from "effect"

const connectionOf = (log: Array<string>, failing?: string): SqlConnection.Connection => {
  const none = Effect.succeed([])
  return {
    execute: () => none,
    executeRaw: () => none,
    executeValues: () => none,
    executeStream: () => Stream.empty,
    executeUnprepared: (text) =>
      Effect.suspend(() => {
        log.push(text)
        return text === failing ? Effect.fail(new SqlError.SqlError({ cause: text, message: "refused" })) : none
      })
  }
}

const recordingStore = (options: { readonly failing?: string } = {}) => {
  const log: Array<string> = []
  const connection = connectionOf(log, options.failing)
  const transactor = SqlTransactor.make<number>({
    joins: (open) => open === connection,
    acquire: () => Effect.sync(() => log.push("acquire")),
    connection: () => connection,
    begin: (_, body) => Effect.zipRight(Effect.sync(() => log.push("BEGIN")), body),
    end: (_, exit) => Effect.zipRight(Effect.sync(() => log.push(Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK")), exit),
    release: () => Effect.sync(() => log.push("release"))
  })
  return { log, connection, atomically: transactor.atomically }
}

const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined

const openTransaction = Effect.map(
  Effect.serviceOption(SqlClient.TransactionConnection),
  Option.map(([connection, depth]) => ({ connection, depth }))
)

describe("SqlTransactor", () => {
  it.effect("commits a success with the connection in the fiber's context, then gives the context back", () =>
    Effect.gen(function*() {
      const { atomically, connection, log } = recordingStore()
      const inside = yield* atomically(openTransaction)
      assert.deepStrictEqual(inside, Option.some({ connection, depth: 0 }))
      assert.isTrue(Option.isNone(yield* openTransaction))
      assert.deepStrictEqual(log, ["acquire", "BEGIN", "COMMIT", "release"])
    }))

  it.effect("rolls back a failure, a defect and an interruption, answering each as it is", () =>
    Effect.gen(function*() {
      const { atomically, log } = recordingStore()
      assert.strictEqual(yield* Effect.flip(atomically(Effect.fail("no"))), "no")
      assert.isTrue(Option.isNone(yield* openTransaction))
      const died = yield* Effect.exit(atomically(Effect.die("boom")))
      assert.strictEqual(defectOf(died), "boom")
      assert.isTrue(Option.isNone(yield* openTransaction))
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(atomically(Effect.zipRight(Deferred.succeed(started, undefined), Effect.never)))
      yield* Deferred.await(started)
      assert.isTrue(Exit.isInterrupted(yield* Fiber.interrupt(fiber)))
      const once = ["acquire", "BEGIN", "ROLLBACK", "release"]
      assert.deepStrictEqual(log, [...once, ...once, ...once])
    }))

  it.effect("makes an inner atomically a savepoint of the open transaction, rolled back alone on failure", () =>
    Effect.gen(function*() {
      const { atomically, connection, log } = recordingStore()
      const depths = yield* atomically(Effect.gen(function*() {
        const inner = yield* atomically(atomically(openTransaction))
        yield* Effect.ignore(atomically(Effect.fail("no")))
        const after = yield* openTransaction
        return [inner, after]
      }))
      assert.deepStrictEqual(depths, [Option.some({ connection, depth: 2 }), Option.some({ connection, depth: 0 })])
      assert.deepStrictEqual(log, [
        "acquire",
        "BEGIN",
        "SAVEPOINT effect_sql_1",
        "SAVEPOINT effect_sql_2",
        "SAVEPOINT effect_sql_1",
        "ROLLBACK TO SAVEPOINT effect_sql_1",
        "COMMIT",
        "release"
      ])
    }))

  it.effect("begins a transaction of its own inside another store's", () =>
    Effect.gen(function*() {
      const { atomically, connection, log } = recordingStore()
      const other = connectionOf([])
      const inside = yield* atomically(openTransaction).pipe(
        Effect.provideService(SqlClient.TransactionConnection, [other, 3] as const)
      )
      assert.deepStrictEqual(inside, Option.some({ connection, depth: 0 }))
      assert.deepStrictEqual(log, ["acquire", "BEGIN", "COMMIT", "release"])
    }))

  it.effect("turns a failed savepoint into a defect", () =>
    Effect.gen(function*() {
      const { atomically, log } = recordingStore({ failing: "SAVEPOINT effect_sql_1" })
      const exit = yield* Effect.exit(atomically(atomically(Effect.void)))
      assert.instanceOf(defectOf(exit), SqlError.SqlError)
      assert.deepStrictEqual(log, ["acquire", "BEGIN", "SAVEPOINT effect_sql_1", "ROLLBACK", "release"])
    }))

  it.effect("lets a wait for the connection be interrupted, and gives back nothing it did not take", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const connection = connectionOf(log)
      const waiting = yield* Deferred.make<void>()
      const { atomically } = SqlTransactor.make<void>({
        joins: () => true,
        acquire: (restore) => Effect.zipRight(Deferred.succeed(waiting, undefined), restore(Effect.never)),
        connection: () => connection,
        begin: (_, body) => body,
        end: (_, exit) => exit,
        release: () => Effect.sync(() => log.push("release"))
      })
      const fiber = yield* Effect.fork(atomically(Effect.void))
      yield* Deferred.await(waiting)
      assert.isTrue(Exit.isInterrupted(yield* Fiber.interrupt(fiber)))
      assert.deepStrictEqual(log, [])
    }))

  it.live("runs an outermost transaction again after a transient defect, and lets any other defect stand", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const connection = connectionOf(log)
      const { atomically } = SqlTransactor.make<void>({
        joins: (open) => open === connection,
        acquire: () => Effect.sync(() => log.push("acquire")),
        connection: () => connection,
        begin: (_, body) => Effect.zipRight(Effect.sync(() => log.push("BEGIN")), body),
        end: (_, exit) =>
          Effect.zipRight(Effect.sync(() => log.push(Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK")), exit),
        release: () => Effect.sync(() => log.push("release")),
        isTransient: (defect) => defect === "deadlock"
      })
      let runs = 0
      const answer = yield* atomically(Effect.suspend(() => ++runs < 3 ? Effect.die("deadlock") : Effect.succeed(runs)))
      assert.strictEqual(answer, 3)
      const once = (end: string) => ["acquire", "BEGIN", end, "release"]
      assert.deepStrictEqual(log, [...once("ROLLBACK"), ...once("ROLLBACK"), ...once("COMMIT")])

      log.length = 0
      assert.strictEqual(defectOf(yield* Effect.exit(atomically(Effect.die("boom")))), "boom")
      assert.deepStrictEqual(log, once("ROLLBACK"))

      log.length = 0
      assert.strictEqual(defectOf(yield* Effect.exit(atomically(Effect.die("deadlock")))), "deadlock")
      assert.strictEqual(log.length, 5 * 4)

      // A savepoint cannot run again alone: its defect goes to the outermost transaction, which runs whole.
      log.length = 0
      runs = 0
      yield* atomically(atomically(Effect.suspend(() => ++runs < 2 ? Effect.die("deadlock") : Effect.void)))
      assert.strictEqual(runs, 2)
      assert.deepStrictEqual(log.filter((line) => line === "BEGIN"), ["BEGIN", "BEGIN"])
    }))
})
