/**
 * Transactions on SQLite that take the write lock at once (`BEGIN IMMEDIATE`), so that two
 * processes on one file never both read a state and then fail to upgrade to writing it.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Transactor } from "@wms/core"
import { Effect, Layer, Scope } from "effect"

const exec = (statement: string) => (conn: { executeUnprepared: SqlConnectionExec }) =>
  Effect.asVoid(conn.executeUnprepared(statement, [], undefined))

type SqlConnectionExec = (
  sql: string,
  params: ReadonlyArray<unknown>,
  transformRows: undefined
) => Effect.Effect<unknown, SqlError.SqlError>

export const layer = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const withTransaction = SqlClient.makeWithTransaction({
      transactionTag: SqlClient.TransactionConnection,
      spanAttributes: [["db.system.name", "sqlite"]],
      acquireConnection: Effect.flatMap(
        Scope.make(),
        (scope) => Effect.map(Scope.extend(sql.reserve, scope), (conn) => [scope, conn] as const)
      ),
      begin: exec("BEGIN IMMEDIATE"),
      savepoint: (conn, id) => exec(`SAVEPOINT effect_sql_${id}`)(conn),
      commit: exec("COMMIT"),
      rollback: exec("ROLLBACK"),
      rollbackSavepoint: (conn, id) => exec(`ROLLBACK TO SAVEPOINT effect_sql_${id}`)(conn)
    })
    return Transactor.of({
      atomically: (effect) => withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die)) as typeof effect
    })
  })
)
