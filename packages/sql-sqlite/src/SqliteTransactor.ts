/**
 * Transactions on SQLite that take the write lock at once (`BEGIN IMMEDIATE`), so that two
 * processes on one file never both read a state and then fail to upgrade to writing it.
 *
 * On the store's own connection, with `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK` prepared once: an
 * outermost transaction holds the connection's lock from `BEGIN` to `COMMIT` or `ROLLBACK`. The
 * rest (savepoints, the fiber's context, defects) is `SqlTransactor`'s, shared with PostgreSQL.
 */
import type { SqlConnection } from "@effect/sql"
import type { Transactor } from "@wms/core"
import { SqlTransactor } from "@wms/sql"
import type Sqlite from "better-sqlite3"
import { Effect, Exit } from "effect"
import type { ConnectionLock } from "./ConnectionLock.js"

export interface TransactionState {
  /** Whether a transaction holds the lock; `Prepared` statements skip the lock otherwise. */
  open: boolean
}

export interface Connection {
  readonly db: Sqlite.Database
  readonly lock: ConnectionLock
  /** The connection as `SqlClient` knows it: the one a transaction's fibers carry. */
  readonly connection: SqlConnection.Connection
  readonly state: TransactionState
}

export const make = ({ connection, db, lock, state }: Connection): Transactor["Type"] => {
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")

  return SqlTransactor.make({
    joins: (open) => open === connection,
    // Free, as nearly always, it is taken in this step; a wait for it can be interrupted.
    acquire: (restore) => Effect.suspend(() => lock.tryTake() ? Effect.void : restore(lock.take)),
    connection: () => connection,
    begin: (_, body) =>
      Effect.suspend(() => {
        begin.run()
        state.open = true
        return body
      }),
    // A failed COMMIT leaves the transaction open: it is rolled back before the lock goes.
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
    release: () =>
      Effect.sync(() => {
        state.open = false
        lock.release()
      })
  })
}
