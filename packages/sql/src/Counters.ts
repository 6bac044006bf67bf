/**
 * Per-site counters for generated identifiers (SKU group ids, tag ids).
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Takes the next `count` values of the site's counter `name`, which starts at 1, and answers the
 * last of them: one statement reads and raises the counter, so concurrent transactions never share
 * a value.
 */
export const takeCounterValues = (sql: SqlClient.SqlClient, siteId: string, name: string, count: number) =>
  Effect.map(
    sql<{ value: number }>`INSERT INTO counters (site_id, name, value) VALUES (${siteId}, ${name}, ${count})
      ON CONFLICT (site_id, name) DO UPDATE SET value = counters.value + excluded.value RETURNING value`,
    (rows) => rows[0].value
  )

/** The next value of the site's counter `name`, starting at 1; never the same value twice. */
export const nextCounterValue = (sql: SqlClient.SqlClient, siteId: string, name: string) =>
  takeCounterValues(sql, siteId, name, 1)
