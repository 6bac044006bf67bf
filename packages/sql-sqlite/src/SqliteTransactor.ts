/**
 * Transactions on SQLite that take the write lock at once (`BEGIN IMMEDIATE`), so that two
 * processes on one file never both read a state and then fail to upgrade to writing it.
 *
 * Written on the store's own connection rather than with `SqlClient.makeWithTransaction`: that one
 * opens a span, a scope and prepares `BEGIN` and `COMMIT` anew for every transaction, about 50 µs
 * of a 250 µs `POST /orders`. Here the statements are prepared once and the permit of the
 * connection is held from `BEGIN` to `COMMIT` or `ROLLBACK`. A transaction inside another becomes
 * a savepoint, as with @effect/sql. SQL failures are defects, as everywhere behind the ports.
 */
import { SqlClient, type SqlConnection } from "@effect/sql"
import { Transactor } from "@wms/core"
import type Sqlite from "better-sqlite3"
import { Context, Effect, Exit, FiberRef } from "effect"

export interface TransactionState {
  /** Whether a transaction holds the permit; `Prepared` statements skip the permit otherwise. */
  open: boolean
}

export interface Connection {
  readonly db: Sqlite.Database
  readonly semaphore: Effect.Semaphore
  /** The connection as `SqlClient` knows it: the one a transaction's fibers carry. */
  readonly connection: SqlConnection.Connection
  readonly state: TransactionState
}

const run = (statement: Sqlite.Statement) => Effect.sync(() => void statement.run())

export const make = ({ connection, db, semaphore, state }: Connection): Transactor["Type"] => {
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")

  // The transaction's outcome, once it is committed or rolled back. A failed COMMIT leaves the
  // transaction open: it is rolled back before the permit goes.
  const end = <A, E>(exit: Exit.Exit<A, E>) =>
    Effect.suspend((): Effect.Effect<A, E> => {
      try {
        if (Exit.isSuccess(exit)) commit.run()
        else rollback.run()
        return exit
      } catch (cause) {
        if (db.inTransaction) rollback.run()
        return Effect.die(cause)
      }
    })

  const outermost = <A, E, R>(
    effect: Effect.Effect<A, E, R>,
    restore: <X, Y, Z>(inner: Effect.Effect<X, Y, Z>) => Effect.Effect<X, Y, Z>,
    context: Context.Context<never>
  ): Effect.Effect<A, E, R> =>
    Effect.zipRight(
      restore(semaphore.take(1)),
      Effect.ensuring(
        Effect.suspend(() => {
          begin.run()
          state.open = true
          // The fiber carries the connection in its context while the transaction runs; the
          // finalizer below puts the context back, rather than `Effect.locally`, whose own
          // acquire and release add to every transaction (10 to 20 µs of a `POST /orders`).
          return Effect.zipRight(
            FiberRef.set(
              FiberRef.currentContext,
              Context.add(context, SqlClient.TransactionConnection, [connection, 0] as const)
            ),
            restore(effect)
          ).pipe(Effect.exit, Effect.flatMap(end))
        }),
        Effect.suspend(() => {
          state.open = false
          return Effect.zipRight(FiberRef.set(FiberRef.currentContext, context), semaphore.release(1))
        })
      )
    )

  const nested = <A, E, R>(
    effect: Effect.Effect<A, E, R>,
    restore: <X, Y, Z>(inner: Effect.Effect<X, Y, Z>) => Effect.Effect<X, Y, Z>,
    context: Context.Context<never>,
    depth: number
  ): Effect.Effect<A, E, R> => {
    const name = `effect_sql_${depth}`
    return Effect.zipRight(
      run(db.prepare(`SAVEPOINT ${name}`)),
      Effect.locally(
        restore(effect),
        FiberRef.currentContext,
        Context.add(context, SqlClient.TransactionConnection, [connection, depth] as const)
      ).pipe(
        Effect.exit,
        Effect.tap((exit) => Exit.isSuccess(exit) ? Effect.void : run(db.prepare(`ROLLBACK TO SAVEPOINT ${name}`))),
        Effect.flatten
      )
    )
  }

  return Transactor.of({
    atomically: (effect) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.withFiberRuntime((fiber) => {
          const context = fiber.currentContext as Context.Context<never>
          const open = Context.getOption(context, SqlClient.TransactionConnection)
          return open._tag === "Some" && open.value[0] === connection
            ? nested(effect, restore, context, open.value[1] + 1)
            : outermost(effect, restore, context)
        })
      )
  })
}
