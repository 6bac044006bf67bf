/**
 * Per-site counters for generated identifiers (SKU group ids, tag ids).
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The next value of the site's counter `name`, starting at 1; never the same value twice. */
export const nextCounterValue = (sql: SqlClient.SqlClient, siteId: string, name: string) =>
  Effect.gen(function*() {
    yield* sql`INSERT INTO counters (site_id, name, value) VALUES (${siteId}, ${name}, 0)
      ON CONFLICT (site_id, name) DO NOTHING`
    // One statement reads and raises the counter, so concurrent transactions never share a value.
    const rows = yield* sql<{ value: number }>`UPDATE counters SET value = value + 1
      WHERE site_id = ${siteId} AND name = ${name} RETURNING value`
    return rows[0].value
  })
