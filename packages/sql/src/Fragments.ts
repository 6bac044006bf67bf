/**
 * SQL fragments the repositories share: the rows of a scope, row locks, list windows, byte order.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import type { RowLock, Scope } from "@wms/core"
import { Effect } from "effect"

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

/**
 * The condition that the Active hold aliased `hold` covers the content aliased `content` (spec §1):
 * a content hold covers the contents `hold_contents` lists for it; any other, the contents of its
 * site (and client, if it has one) that match every scope field it has.
 */
export const holdCoversText = (hold: string, content: string) =>
  `${hold}.status_id = 24 AND ${hold}.site_id = ${content}.site_id
    AND (${hold}.client_id IS NULL OR ${hold}.client_id = ${content}.client_id)
    AND CASE WHEN ${hold}.content_id IS NOT NULL
      THEN EXISTS (SELECT 1 FROM hold_contents hc
        WHERE hc.hold_id = ${hold}.id AND hc.content_id = ${content}.content_id)
      ELSE (${hold}.sku_id IS NULL OR ${hold}.sku_id = ${content}.sku_id)
        AND (${hold}.tag_id IS NULL OR ${hold}.tag_id = ${content}.tag_id)
        AND (${hold}.expiry_date IS NULL OR ${hold}.expiry_date = ${content}.expiry_date)
        AND (${hold}.loc_id IS NULL OR ${hold}.loc_id = ${content}.loc_id) END`

/** `holdCoversText` as a fragment of a `sql` template. */
export const holdCovers = (sql: SqlClient.SqlClient, hold: string, content: string) =>
  sql.literal(holdCoversText(hold, content))

/**
 * The condition that an Active hold covers the content aliased `content`, as `holdCovers` says, in
 * three probes an index answers (a SKU or lot hold by SKU, a location hold by location, a content
 * hold by content), so that leaving held stock out of a wave's stock costs little per content.
 */
export const isHeld = (sql: SqlClient.SqlClient, content: string) =>
  sql.literal(`(EXISTS (SELECT 1 FROM holds h
      WHERE h.site_id = ${content}.site_id AND h.sku_id = ${content}.sku_id AND h.status_id = 24
        AND h.content_id IS NULL AND (h.client_id IS NULL OR h.client_id = ${content}.client_id)
        AND (h.tag_id IS NULL OR h.tag_id = ${content}.tag_id)
        AND (h.expiry_date IS NULL OR h.expiry_date = ${content}.expiry_date)
        AND (h.loc_id IS NULL OR h.loc_id = ${content}.loc_id))
    OR EXISTS (SELECT 1 FROM holds h
      WHERE h.site_id = ${content}.site_id AND h.loc_id = ${content}.loc_id AND h.status_id = 24
        AND h.sku_id IS NULL AND h.content_id IS NULL
        AND (h.client_id IS NULL OR h.client_id = ${content}.client_id))
    OR EXISTS (SELECT 1 FROM hold_contents hc JOIN holds h ON h.id = hc.hold_id
      WHERE hc.content_id = ${content}.content_id AND h.status_id = 24))`)

/**
 * Takes the site's holds lock until the transaction ends on PostgreSQL (`HoldRepository.lockHoldsOf`):
 * exclusive for a hold's creation, shared for a reader of free stock. SQLite needs none: a write
 * transaction holds the whole database.
 */
export const lockHolds = (
  sql: SqlClient.SqlClient,
  siteId: string,
  mode: "exclusive" | "shared"
): Effect.Effect<unknown, SqlError.SqlError> =>
  sql.onDialectOrElse({
    pg: () =>
      mode === "exclusive"
        ? sql`SELECT pg_advisory_xact_lock(24, hashtext(${siteId}))`
        : sql`SELECT pg_advisory_xact_lock_shared(24, hashtext(${siteId}))`,
    orElse: () => Effect.void
  })

/**
 * The ids of the Active holds covering the content aliased `content`, as one text of ids joined by
 * commas (null: none), probed as `isHeld` probes (spec §1 H6).
 */
export const heldByIds = (sql: SqlClient.SqlClient, content: string) =>
  sql.literal(
    `(SELECT ${
      sql.onDialectOrElse({
        pg: () => "string_agg(CAST(id AS TEXT), ',')",
        orElse: () => "group_concat(id, ',')"
      })
    } FROM (SELECT h.id FROM holds h
      WHERE h.site_id = ${content}.site_id AND h.sku_id = ${content}.sku_id AND h.status_id = 24
        AND h.content_id IS NULL AND (h.client_id IS NULL OR h.client_id = ${content}.client_id)
        AND (h.tag_id IS NULL OR h.tag_id = ${content}.tag_id)
        AND (h.expiry_date IS NULL OR h.expiry_date = ${content}.expiry_date)
        AND (h.loc_id IS NULL OR h.loc_id = ${content}.loc_id)
    UNION SELECT h.id FROM holds h
      WHERE h.site_id = ${content}.site_id AND h.loc_id = ${content}.loc_id AND h.status_id = 24
        AND h.sku_id IS NULL AND h.content_id IS NULL
        AND (h.client_id IS NULL OR h.client_id = ${content}.client_id)
    UNION SELECT h.id FROM hold_contents hc JOIN holds h ON h.id = hc.hold_id
      WHERE hc.content_id = ${content}.content_id AND h.status_id = 24) covering)`
  )
