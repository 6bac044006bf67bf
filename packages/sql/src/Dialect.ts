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
