/**
 * Transactions on PostgreSQL, on a client held from the store's pool: `sql` templates and prepared
 * statements inside run on it. The rest (savepoints, the fiber's context, defects) is
 * `SqlTransactor`'s, shared with SQLite.
 */
import { SqlError } from "@effect/sql"
import { Transactor } from "@wms/core"
import { SqlTransactor } from "@wms/sql"
import { Effect, Exit, Layer } from "effect"
import type * as Pg from "pg"
import { PgPool } from "./PgPool.js"
import { PgReservedConnection } from "./PgReservedConnection.js"

// A client of the pool, taken with pg's callback rather than `acquireRelease` and `Scope.extend`:
// the transactor gives it back. Its wait is not interruptible: a client that came after its taker
// had gone would never go back to the pool.
const acquire = (pool: Pg.Pool) =>
  Effect.async<PgReservedConnection>((resume) => {
    pool.connect((error, client) => {
      if (error || !client) {
        return resume(Effect.die(
          new SqlError.SqlError({
            cause: error ?? new Error("No client returned"),
            message: "Failed to acquire connection for transaction"
          })
        ))
      }
      resume(Effect.succeed(new PgReservedConnection(client, pool)))
    })
  })

// A BEGIN, COMMIT or ROLLBACK that fails leaves the session in a state not known, perhaps inside a
// transaction: its client must not go back to the pool. Each runs inside `SqlTransactor`'s mask.
const control = (connection: PgReservedConnection, text: string) =>
  Effect.catchAll(connection.execute(text, [], undefined), (error) => {
    connection.discard(error)
    return Effect.die(error)
  })

/** SQLSTATEs of a transaction PostgreSQL rolled back whole and that may succeed when run again. */
const transientStates: ReadonlySet<unknown> = new Set(["40P01", "40001"])

/** Whether a defect is a deadlock or serialization failure: an `SqlError` whose cause carries that SQLSTATE. */
const isTransient = (defect: unknown): boolean =>
  defect instanceof SqlError.SqlError && typeof defect.cause === "object" && defect.cause !== null &&
  transientStates.has((defect.cause as { readonly code?: unknown }).code)

export const layer = Layer.effect(
  Transactor,
  Effect.map(PgPool, (pool) =>
    SqlTransactor.make({
      // Any open transaction, `sql.withTransaction`'s of @effect/sql-pg too, runs on this database.
      joins: () => true,
      acquire: () => acquire(pool),
      connection: (connection) => connection,
      begin: (connection, body) => Effect.zipRight(control(connection, "BEGIN"), body),
      // A transaction whose fiber was interrupted may have left a statement running: it is
      // cancelled before the rollback, which would otherwise wait for its end.
      end: (connection, exit) =>
        Exit.isSuccess(exit)
          ? Effect.zipRight(control(connection, "COMMIT"), exit)
          : Effect.zipRight(Effect.zipRight(connection.cancelRunning(), control(connection, "ROLLBACK")), exit),
      release: (connection) => Effect.sync(() => connection.release()),
      isTransient
    }))
)
