/**
 * `Prepared` on the store's one connection: each text prepared once, and run synchronously, with
 * none of @effect/sql's compiling, prepare cache or spans.
 */
import { SqlClient, type SqlConnection, type SqlError } from "@effect/sql"
import { Prepared } from "@wms/sql"
import type Sqlite from "better-sqlite3"
import { Context, Effect } from "effect"
import { executeError, prepareError, rowsOf } from "./SqliteStatement.js"

export interface Connection {
  readonly db: Sqlite.Database
  /** The permit a transaction holds from its `BEGIN` to its end. */
  readonly semaphore: Effect.Semaphore
  /** The connection as `SqlClient` knows it, the one a transaction's fibers carry. */
  readonly connection: SqlConnection.Connection
  /** Whether a transaction holds the permit. */
  readonly transactionOpen: () => boolean
}

export const make = ({ connection, db, semaphore, transactionOpen }: Connection): Prepared.Prepared["Type"] => {
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
  const locked = semaphore.withPermits(1)

  return Prepared.Prepared.of({
    prepare: <Row extends object>(text: string): Prepared.PreparedStatement<Row> => {
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
      return (params) =>
        Effect.withFiberRuntime((fiber) => {
          // With no transaction open the statement runs at once: it runs to its end synchronously,
          // so no transaction can begin before it is done, and taking the permit (4 to 8 µs) only
          // to release it would change nothing.
          if (!transactionOpen()) return execute(params)
          const transaction = Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)
          // The fiber of the open transaction holds the permit already; any other waits for its end.
          return transaction._tag === "Some" && transaction.value[0] === connection
            ? execute(params)
            : locked(Effect.suspend(() => execute(params)))
        })
    }
  })
}
