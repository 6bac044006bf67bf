/**
 * The few SQL fragments that differ between SQLite and PostgreSQL; everything else is written
 * once in the common subset of both.
 */
import type { SqlClient } from "@effect/sql"

/** An auto-numbered 32-bit integer primary key (a JavaScript number on both dialects). */
export const serialPrimaryKey = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({
    pg: () => sql.literal("SERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })

/** A 64-bit floating point column (SQLite's REAL is already 64-bit; PostgreSQL's is not). */
export const double = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({
    pg: () => sql.literal("DOUBLE PRECISION"),
    orElse: () => sql.literal("REAL")
  })

/** A condition of a `Prepared` text on one parameter bound as `bind(values)`. */
export interface ListCondition<A = string> {
  readonly text: string
  readonly bind: (values: ReadonlyArray<A>) => unknown
}

/**
 * `column` is one of a list of texts bound as one parameter, so that the statement's text is the
 * same whatever the list's length: a JSON array on SQLite, an array on PostgreSQL (where `= ANY`
 * keeps to the index as `IN` does).
 */
export const inTexts = (sql: SqlClient.SqlClient, column: string): ListCondition =>
  sql.onDialectOrElse({
    pg: () => ({ text: `${column} = ANY(CAST(? AS TEXT[]))`, bind: (values) => values }),
    orElse: () => ({ text: `${column} IN (SELECT value FROM json_each(?))`, bind: (values) => JSON.stringify(values) })
  })

/** `column` is one of a list of integers bound as one parameter, as `inTexts`. */
export const inIntegers = (sql: SqlClient.SqlClient, column: string): ListCondition<number> =>
  sql.onDialectOrElse({
    pg: () => ({ text: `${column} = ANY(CAST(? AS INTEGER[]))`, bind: (values) => values }),
    orElse: () => ({ text: `${column} IN (SELECT value FROM json_each(?))`, bind: (values) => JSON.stringify(values) })
  })
