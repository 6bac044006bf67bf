/**
 * Cycle counts on @effect/sql. One count that is not over per location is a partial unique key,
 * so an insert that would open a second one does nothing, in any process. A count is locked FOR NO
 * KEY UPDATE on PostgreSQL: the snapshot rows a confirmation writes refer to it, and their foreign
 * key check (FOR KEY SHARE) must not wait for the count's lock.
 */
import { SqlClient } from "@effect/sql"
import {
  type ClaimRow,
  type CountFilter,
  CountRepository,
  type RecordedLine,
  type SnapshotContent,
  type StoredCount
} from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { chunked } from "./Batches.js"
import { byBytes, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, query, rows, run } from "./Query.js"

interface CountRow extends Omit<StoredCount, "blind"> {
  readonly blind: number
}

const toCount = (row: CountRow): StoredCount => ({ ...row, blind: row.blind === 1 })

interface LineRow extends Omit<RecordedLine, "tag_id"> {
  readonly tag_key: string
}

/** Rows per statement of the snapshot and line writes: well under both dialects' parameter limits. */
const rowsPerWrite = 1_000

export const layer = Layer.effect(
  CountRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(
      "c.id, c.site_id, c.loc_id, c.sku_id, c.blind, c.assignee, c.reason, c.status_id, c.count_index, " +
        "c.location_status, c.reason_code, c.created_by, c.created_at, c.released_at, c.completed_at, c.approved_by"
    )
    const forUpdate = sql.onDialectOrElse({
      pg: () => sql.literal("FOR NO KEY UPDATE"),
      orElse: () => sql.literal("")
    })

    return CountRepository.of({
      insert: (count) =>
        first(
          sql<{ id: number }>`INSERT INTO counts ${
            sql.insert({
              site_id: count.site_id,
              loc_id: count.loc_id,
              sku_id: count.sku_id,
              blind: count.blind ? 1 : 0,
              assignee: count.assignee,
              reason: count.reason,
              status_id: count.status_id,
              count_index: count.count_index,
              created_by: count.created_by,
              created_at: count.created_at
            })
          } ON CONFLICT DO NOTHING RETURNING id`,
          (row) => row.id
        ),
      find: (siteId, countId, lock) =>
        Effect.map(
          first(sql<CountRow>`SELECT ${columns} FROM counts c
            WHERE c.site_id = ${siteId} AND c.id = ${countId} ${lock ? forUpdate : sql.literal("")}`),
          Option.map(toCount)
        ),
      list: (siteId, filter: CountFilter, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<CountRow>`SELECT ${columns}${total} FROM counts c
            ${
              filter.zone === undefined
                ? sql.literal("")
                : sql`JOIN locations l ON l.site_id = c.site_id AND l.loc_id = c.loc_id AND l.zone = ${filter.zone}`
            }
            WHERE ${
              sql.and([
                sql`c.site_id = ${siteId}`,
                ...(filter.status_id === undefined ? [] : [sql`c.status_id = ${filter.status_id}`]),
                ...(filter.loc_id === undefined ? [] : [sql`c.loc_id = ${filter.loc_id}`])
              ])
            }
            ORDER BY c.id ${windowClause(sql, page)}`),
          toCount
        ),
      planCandidates: (siteId, filter, max) =>
        rows(
          sql<{ loc_id: string }>`SELECT l.loc_id FROM locations l
            WHERE ${
            sql.and([
              sql`l.site_id = ${siteId}`,
              ...(filter.zone === null ? [] : [sql`l.zone = ${filter.zone}`]),
              ...(filter.loc_type === null ? [] : [sql`l.loc_type = ${filter.loc_type}`]),
              sql`NOT EXISTS (SELECT 1 FROM counts c
                WHERE c.site_id = l.site_id AND c.loc_id = l.loc_id AND c.status_id IN (1, 22, 23))`
            ])
          }
            ORDER BY CASE WHEN l.last_counted IS NULL THEN 0 ELSE 1 END, l.last_counted, l.loc_id ${byBytes(sql)}
            LIMIT ${max}`,
          (row) => row.loc_id
        ),
      update: (count) =>
        run(sql`UPDATE counts SET status_id = ${count.status_id}, count_index = ${count.count_index},
          location_status = ${count.location_status}, reason_code = ${count.reason_code},
          released_at = ${count.released_at}, completed_at = ${count.completed_at}, approved_by = ${count.approved_by}
          WHERE id = ${count.id}`),
      snapshot: (countId, countIndex) =>
        rows(sql<SnapshotContent>`SELECT content_id, client_id, sku_id, tag_id, expiry_date, expected, in_flight
          FROM count_contents WHERE count_id = ${countId} AND count_index = ${countIndex} ORDER BY content_id`),
      putSnapshot: (countId, countIndex, contents) =>
        query(
          Effect.forEach(chunked(contents, rowsPerWrite), (chunk) =>
            sql`INSERT INTO count_contents ${
              sql.insert(chunk.map((c) => ({
                count_id: countId,
                count_index: countIndex,
                content_id: c.content_id,
                client_id: c.client_id,
                sku_id: c.sku_id,
                tag_id: c.tag_id,
                expiry_date: c.expiry_date,
                expected: c.expected,
                in_flight: c.in_flight
              })))
            }`, { discard: true })
        ),
      lines: (countId, countIndex) =>
        rows(
          sql<LineRow>`SELECT sku_id, tag_key, client_id, expiry_date, qty_counted FROM count_lines
            WHERE count_id = ${countId} AND count_index = ${countIndex} ORDER BY sku_id ${byBytes(sql)}, tag_key ${
            byBytes(sql)
          }`,
          ({ tag_key, ...line }): RecordedLine => ({ ...line, tag_id: tag_key === "" ? null : tag_key })
        ),
      putLines: (countId, countIndex, lines) =>
        query(
          Effect.forEach(chunked(lines, rowsPerWrite), (chunk) =>
            sql`INSERT INTO count_lines ${
              sql.insert(chunk.map((line) => ({
                count_id: countId,
                count_index: countIndex,
                sku_id: line.sku_id,
                tag_key: line.tag_id ?? "",
                client_id: line.client_id,
                expiry_date: line.expiry_date,
                qty_counted: line.qty_counted
              })))
            }
          ON CONFLICT (count_id, count_index, sku_id, tag_key) DO UPDATE SET client_id = excluded.client_id,
            expiry_date = excluded.expiry_date, qty_counted = excluded.qty_counted`, { discard: true })
        ),
      addInFlight: (content, delta) =>
        run(sql`INSERT INTO count_contents
            (count_id, count_index, content_id, client_id, sku_id, tag_id, expiry_date, expected, in_flight)
          SELECT id, count_index, ${content.content_id}, ${content.client_id}, ${content.sku_id}, ${content.tag_id},
            ${content.expiry_date}, 0, ${delta}
          FROM counts
          WHERE site_id = ${content.site_id} AND loc_id = ${content.loc_id} AND status_id IN (22, 23)
            AND (sku_id IS NULL OR sku_id = ${content.sku_id})
          ON CONFLICT (count_id, count_index, content_id) DO UPDATE
            SET in_flight = count_contents.in_flight + excluded.in_flight`),
      openClaimsOn: (contentIds) =>
        contentIds.length === 0
          ? Effect.succeed([])
          : query(
            Effect.map(
              Effect.forEach(chunked([...new Set(contentIds)], rowsPerWrite), (chunk) =>
                sql<ClaimRow>`SELECT * FROM claims WHERE status = 'allocated' AND ${sql.in("content_id", chunk)}`),
              (found) =>
                found.flat().sort((a, b) =>
                  a.id - b.id
                )
            )
          )
    })
  })
)
