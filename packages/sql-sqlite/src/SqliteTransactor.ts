/**
 * Transactions on SQLite that take the write lock at once (`BEGIN IMMEDIATE`), so that two
 * processes on one file never both read a state and then fail to upgrade to writing it.
 *
 * On the store's own connection, with `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK` prepared once: an
 * outermost transaction holds the connection's permit from `BEGIN` to `COMMIT` or `ROLLBACK`. The
 * rest (savepoints, the fiber's context, defects) is `SqlTransactor`'s, shared with PostgreSQL.
 */
import type { SqlConnection } from "@effect/sql"
import type { Transactor } from "@wms/core"
import { SqlTransactor } from "@wms/sql"
import type Sqlite from "better-sqlite3"
import { Effect, Exit } from "effect"

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

export const make = ({ connection, db, semaphore, state }: Connection): Transactor["Type"] => {
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")

  return SqlTransactor.make({
    joins: (open) => open === connection,
    acquire: (restore) => restore(semaphore.take(1)),
    connection: () => connection,
    begin: (_, body) =>
      Effect.suspend(() => {
        begin.run()
        state.open = true
        return body
      }),
    // A failed COMMIT leaves the transaction open: it is rolled back before the permit goes.
    end: (_, exit) =>
      Effect.suspend(() => {
        try {
          if (Exit.isSuccess(exit)) commit.run()
          else rollback.run()
          return exit
        } catch (cause) {
          if (db.inTransaction) rollback.run()
          return Effect.die(cause)
        }
      }),
    release: () => {
      state.open = false
      return semaphore.release(1)
    }
  })
}
