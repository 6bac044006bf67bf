/**
 * Transactions on PostgreSQL, on a client held from the store's pool: `sql` templates and prepared
 * statements inside run on it. Nested calls take a savepoint, as `sql.withTransaction` does. The
 * transaction's own SQL failures (taking a client, BEGIN, SAVEPOINT, COMMIT) are defects; the
 * effect's failures come out as they are, as on SQLite.
 */
import { SqlClient, type SqlConnection, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Transactor } from "@wms/core"
import { Effect, Layer, Scope } from "effect"
import type * as Pg from "pg"
import { PgPool } from "./PgPool.js"
import { PgReservedConnection } from "./PgReservedConnection.js"

const exec = (statement: string) => (conn: SqlConnection.Connection): Effect.Effect<void, SqlError.SqlError> =>
  Effect.asVoid(conn.executeUnprepared(statement, [], undefined))

const execOrDie = (statement: string) => (conn: SqlConnection.Connection): Effect.Effect<void> =>
  Effect.orDie(exec(statement)(conn))

// A COMMIT or ROLLBACK that fails may leave the session inside the transaction: its client must
// not go back to the pool.
const end = (statement: string) => (conn: SqlConnection.Connection) =>
  Effect.tapError(exec(statement)(conn), (error) =>
    Effect.sync(() => {
      if (conn instanceof PgReservedConnection) conn.discard(error)
    }))

// A client of the pool, held until the returned scope closes. Built by hand rather than with
// `acquireRelease` and `Scope.extend`, which cost about 50 µs more a transaction; safe because
// `makeWithTransaction` runs it uninterruptibly.
const acquire = (pool: Pg.Pool) =>
  Effect.async<readonly [Scope.CloseableScope, PgReservedConnection], SqlError.SqlError>((resume) => {
    pool.connect((error, client) => {
      if (error || !client) {
        return resume(Effect.fail(
          new SqlError.SqlError({
            cause: error ?? new Error("No client returned"),
            message: "Failed to acquire connection for transaction"
          })
        ))
      }
      const connection = new PgReservedConnection(client, pool)
      resume(Effect.flatMap(Scope.make(), (scope) =>
        Effect.as(
          Scope.addFinalizer(scope, Effect.sync(() => connection.release())),
          [scope, connection] as const
        )))
    })
  })

export const layer = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const pool = yield* PgPool
    const { config } = yield* PgClient.PgClient
    const withTransaction = SqlClient.makeWithTransaction({
      transactionTag: SqlClient.TransactionConnection,
      // Those of @effect/sql-pg's own transactions.
      spanAttributes: [
        ["db.system.name", "postgresql"],
        ["db.namespace", config.database ?? config.username ?? "postgres"],
        ["server.address", config.host ?? "localhost"],
        ["server.port", config.port ?? 5432]
      ],
      acquireConnection: Effect.orDie(acquire(pool)),
      begin: execOrDie("BEGIN"),
      savepoint: (conn, id) => execOrDie(`SAVEPOINT effect_sql_${id}`)(conn),
      commit: end("COMMIT"),
      rollback: end("ROLLBACK"),
      rollbackSavepoint: (conn, id) => exec(`ROLLBACK TO SAVEPOINT effect_sql_${id}`)(conn)
    })
    return Transactor.of({
      atomically: (effect) => withTransaction(effect) as typeof effect
    })
  })
)
