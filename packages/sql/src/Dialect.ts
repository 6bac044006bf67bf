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

/** The integer rows of a `Prepared` text, bound as `bind(rows)` (each row its columns' values in order). */
export interface IntegerRows {
  /** `WITH v AS (…)`, for the statement that follows to read the rows from `v`. */
  readonly with: string
  readonly bind: (rows: ReadonlyArray<ReadonlyArray<number>>) => ReadonlyArray<unknown>
}

/**
 * A table `v` of integer rows with `columns`, for a statement that writes many rows with the same
 * text whatever their number: each column an array parameter on PostgreSQL (`unnest`), the rows
 * one JSON array parameter on SQLite, materialized there so that its planner joins from them to
 * the rows they name by index rather than scanning them once per row of the table.
 */
export const integerRows = (sql: SqlClient.SqlClient, columns: ReadonlyArray<string>): IntegerRows =>
  sql.onDialectOrElse({
    pg: () => ({
      with: `WITH v AS (SELECT * FROM unnest(${columns.map(() => "CAST(? AS INTEGER[])").join(", ")}) AS u (${
        columns.join(", ")
      }))`,
      bind: (rows) => columns.map((_, column) => rows.map((row) => row[column]))
    }),
    orElse: () => ({
      with: `WITH v AS MATERIALIZED (SELECT ${
        columns.map((name, column) => `json_extract(value, '$[${column}]') AS ${name}`).join(", ")
      } FROM json_each(?))`,
      bind: (rows) => [JSON.stringify(rows)]
    })
  })
