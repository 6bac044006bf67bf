/**
 * SQL fragments the repositories share: the rows of a scope, row locks, list windows, byte order.
 */
import type { SqlClient } from "@effect/sql"
import type { RowLock, Scope } from "@wms/core"

/**
 * The condition on `site_id` and `client_id` (of the table aliased `alias`, if given) that keeps to
 * the rows a scope may see: a site's scope sees the rows of all its clients.
 */
export const visibleIn = (sql: SqlClient.SqlClient, scope: Scope, alias?: string) => {
  const prefix = alias === undefined ? "" : `${alias}.`
  return scope.client_id === null
    ? sql`${sql.literal(prefix)}site_id = ${scope.site_id}`
    : sql`${sql.literal(prefix)}site_id = ${scope.site_id} AND ${sql.literal(prefix)}client_id = ${scope.client_id}`
}

/**
 * The locking clause of a lookup on PostgreSQL, where transactions run side by side. SQLite needs
 * none: a write transaction there holds the whole database from its start (BEGIN IMMEDIATE).
 */
export const lockClause = (sql: SqlClient.SqlClient, lock: RowLock) =>
  lock === "none" ? sql.literal("") : sql.onDialectOrElse({
    pg: () => sql.literal(lock === "share" ? "FOR SHARE" : "FOR UPDATE"),
    orElse: () => sql.literal("")
  })

/**
 * `LIMIT`/`OFFSET` of a list window; nothing for the whole list. SQLite takes OFFSET only after a
 * LIMIT: the largest INTEGER stands for "no limit".
 */
export const windowClause = (
  sql: SqlClient.SqlClient,
  window: { readonly limit?: number | undefined; readonly offset?: number | undefined }
) =>
  window.limit === undefined && window.offset === undefined
    ? sql.literal("")
    : sql`LIMIT ${window.limit ?? 2147483647} OFFSET ${window.offset ?? 0}`

/** Text ordered by its bytes on both dialects, as SQLite does by default. */
export const byBytes = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({ pg: () => sql.literal("COLLATE \"C\""), orElse: () => sql.literal("") })
