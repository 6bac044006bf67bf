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
