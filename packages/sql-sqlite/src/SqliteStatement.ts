/// <reference path="./better-sqlite3.d.ts" />
/**
 * One better-sqlite3 statement run as both the `SqlClient` and `Prepared` run it: the rows of a
 * statement that returns them, and a `SqlError` for a failure.
 */
import { SqlError } from "@effect/sql"
import type Sqlite from "better-sqlite3"

/** Rows of a statement that returns them (`SELECT`, `RETURNING`); none for any other. */
export const rowsOf = (statement: Sqlite.Statement, params: ReadonlyArray<unknown>): ReadonlyArray<unknown> => {
  if (statement.reader) return statement.all(...params)
  statement.run(...params)
  return []
}

export const executeError = (cause: unknown) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })

export const prepareError = (cause: unknown) => new SqlError.SqlError({ cause, message: "Failed to prepare statement" })
