/**
 * SQL fragments the master-data repositories share: the rows of a scope, and row locks.
 */
import type { SqlClient } from "@effect/sql"
import type { ListWindow, RowLock, Scope } from "@wms/core"

/** The condition on `site_id` and `client_id` that keeps to the rows a scope may see. */
export const visibleIn = (sql: SqlClient.SqlClient, scope: Scope) =>
  scope.client_id === null
    ? sql`site_id = ${scope.site_id}`
    : sql`site_id = ${scope.site_id} AND client_id = ${scope.client_id}`

/**
 * The locking clause of a lookup on PostgreSQL, where transactions run side by side. SQLite needs
 * none: a write transaction there holds the whole database from its start (BEGIN IMMEDIATE).
 */
export const lockClause = (sql: SqlClient.SqlClient, lock: RowLock) =>
  lock === "none" ? sql.literal("") : sql.onDialectOrElse({
    pg: () => sql.literal(lock === "share" ? "FOR SHARE" : "FOR UPDATE"),
    orElse: () => sql.literal("")
  })

/** `LIMIT`/`OFFSET` of a list window; nothing for the whole list. SQLite takes OFFSET only after a LIMIT. */
export const windowClause = (sql: SqlClient.SqlClient, window: ListWindow) =>
  window.limit === undefined && window.offset === undefined
    ? sql.literal("")
    : sql`LIMIT ${window.limit ?? 2147483647} OFFSET ${window.offset ?? 0}`

/** Text ordered by its bytes on both dialects, as SQLite does by default. */
export const byBytes = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({ pg: () => sql.literal("COLLATE \"C\""), orElse: () => sql.literal("") })
