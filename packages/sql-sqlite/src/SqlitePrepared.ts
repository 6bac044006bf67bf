/**
 * `Prepared` on the store's one connection: each text prepared once, and run synchronously, with
 * none of @effect/sql's compiling, prepare cache or spans.
 */
import type { SqlConnection, SqlError } from "@effect/sql"
import { Prepared } from "@wms/sql"
import type Sqlite from "better-sqlite3"
import { Effect } from "effect"
import type { ConnectionLock } from "./ConnectionLock.js"
import { executeError, prepareError, rowsOf } from "./SqliteStatement.js"

export interface Connection {
  readonly db: Sqlite.Database
  /** The lock a transaction holds from its `BEGIN` to its end. */
  readonly lock: ConnectionLock
  /** The connection as `SqlClient` knows it, the one a transaction's fibers carry. */
  readonly connection: SqlConnection.Connection
  /** Whether a transaction holds the permit. */
  readonly transactionOpen: () => boolean
}

export const make = ({ connection, db, lock, transactionOpen }: Connection): Prepared.Prepared["Type"] => {
  // By text, so that call sites sharing a text share its statement.
  const statements = new Map<string, Sqlite.Statement>()
  const statementOf = (text: string) => {
    let statement = statements.get(text)
    if (statement === undefined) {
      statement = db.prepare(text)
      statements.set(text, statement)
    }
    return statement
  }

  return Prepared.make(<Row extends object>(text: string): Prepared.Runner<Row> => {
    // Prepared at the first run, once the migrations have made the tables it names.
    let statement: Sqlite.Statement | undefined
    const execute = (params: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError> => {
      if (statement === undefined) {
        try {
          statement = statementOf(text)
        } catch (cause) {
          return Effect.fail(prepareError(cause))
        }
      }
      try {
        return Effect.succeed(rowsOf(statement, params) as ReadonlyArray<Row>)
      } catch (cause) {
        return Effect.fail(executeError(cause))
      }
    }
    // Another fiber's transaction holds the lock: wait for its end rather than see its writes.
    const afterTransaction = (params: ReadonlyArray<unknown>) => lock.withLock(Effect.suspend(() => execute(params)))
    // With no transaction open the statement runs at once: it runs to its end synchronously, so no
    // transaction can begin before it is done, and taking the lock only to release it would
    // change nothing.
    return {
      outside: (params) => transactionOpen() ? afterTransaction(params) : execute(params),
      inside: (open, params) => open === connection || !transactionOpen() ? execute(params) : afterTransaction(params)
    }
  })
}
