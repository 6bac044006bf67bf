/**
 * Customer returns on @effect/sql (spec §2): a return is one row read with its order's id and its
 * lines aggregated as JSON. The returnable rest of an order line is summed under the line's lock.
 */
import { SqlClient } from "@effect/sql"
import { type ReturnableLine, ReturnRepository, type ReturnRow, Status } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { nextCounterValue } from "./Counters.js"
import { lockClause, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, query, rows, run } from "./Query.js"

type LineTuple = readonly [number, number, string, number, number, number, number, number]

interface ReturnRecord extends Omit<ReturnRow, "lines"> {
  readonly lines: string | null
}

const toRow = (row: ReturnRecord): ReturnRow => ({
  ...row,
  lines: row.lines === null ? [] : (JSON.parse(row.lines) as ReadonlyArray<LineTuple>).map((
    [line, order_line, sku_id, qty_authorized, qty_restocked, qty_quarantined, qty_scrapped]
  ) => ({
    line,
    order_line,
    sku_id,
    qty_authorized,
    qty_received: qty_restocked + qty_quarantined + qty_scrapped,
    qty_restocked,
    qty_quarantined,
    qty_scrapped
  }))
})

export const layer = Layer.effect(
  ReturnRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const lineValues =
      "l.line, l.order_line, l.sku_id, l.qty_authorized, l.qty_restocked, l.qty_quarantined, l.qty_scrapped"
    const lines = sql.literal(`(SELECT ${
      sql.onDialectOrElse({
        pg: () => `CAST(json_agg(json_build_array(${lineValues}) ORDER BY l.line) AS TEXT)`,
        orElse: () => `json_group_array(json_array(${lineValues}) ORDER BY l.line)`
      })
    } FROM return_lines l WHERE l.return_ref = r.id HAVING count(*) > 0) AS lines`)
    const select = sql.literal(`SELECT r.id AS ref, r.site_id, r.client_id, r.return_id, r.order_ref, o.order_id,
    r.customer_id, r.reason_code, r.notes, r.status_id, r.created_at, r.created_by`)
    const from = sql.literal("FROM returns r JOIN orders o ON o.id = r.order_ref")
    const find = (scope: Parameters<typeof visibleIn>[1], returnId: string) =>
      first(
        sql<ReturnRecord>`${select}, ${lines} ${from} WHERE ${visibleIn(sql, scope, "r")}
      AND r.return_id = ${returnId}`,
        toRow
      )

    return ReturnRepository.of({
      list: (scope, filter, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<ReturnRecord>`${select}, ${lines}${total} ${from} WHERE ${visibleIn(sql, scope, "r")}
            ${filter.order_id === undefined ? sql.literal("") : sql`AND o.order_id = ${filter.order_id}`}
            ${filter.status_id === undefined ? sql.literal("") : sql`AND r.status_id = ${filter.status_id}`}
            ${filter.customer_id === undefined ? sql.literal("") : sql`AND r.customer_id = ${filter.customer_id}`}
            ORDER BY r.id ${windowClause(sql, page)}`),
          toRow
        ),
      find,
      lock: (scope, returnId) =>
        Effect.zipRight(
          // The return's row alone is locked: a lock taken through the join would lock its order too.
          run(sql`SELECT id FROM returns r WHERE ${visibleIn(sql, scope, "r")} AND r.return_id = ${returnId}
          ${lockClause(sql, "update")}`),
          find(scope, returnId)
        ),
      lockLines: (orderRef, numbers) =>
        query(
          Effect.gen(function*() {
            // The lock first, then the sums in a statement of their own: under READ COMMITTED it reads
            // what the writers this lock waited for committed.
            yield* sql`SELECT line FROM order_lines WHERE order_ref = ${orderRef} AND line IN ${sql.in(numbers)}
            ORDER BY line ${lockClause(sql, "update")}`
            return yield* sql<ReturnableLine>`SELECT l.line, l.sku_id, l.qty_shipped,
              CAST(COALESCE((SELECT SUM(rl.qty_authorized) FROM return_lines rl
                JOIN returns r ON r.id = rl.return_ref
                WHERE r.order_ref = l.order_ref AND rl.order_line = l.line AND r.status_id <> ${Status.Cancelled}), 0)
                AS BIGINT) AS qty_authorized
            FROM order_lines l WHERE l.order_ref = ${orderRef} AND l.line IN ${sql.in(numbers)} ORDER BY l.line`
          }),
          (found) => found.map((line) => ({ ...line, qty_authorized: Number(line.qty_authorized) }))
        ),
      shippedExpiries: (orderRef, orderLine) =>
        rows(
          sql<{ expiry_date: string | null }>`SELECT DISTINCT c.expiry_date FROM claims k
          JOIN contents c ON c.content_id = k.content_id
          WHERE k.order_ref = ${orderRef} AND k.line_id = ${orderLine} AND k.status = 'picked'`,
          (row) => row.expiry_date
        ),
      nextNumber: (siteId) => query(nextCounterValue(sql, siteId, "return")),
      insert: (row) =>
        query(
          Effect.gen(function*() {
            const inserted = yield* sql<{ id: number }>`INSERT INTO returns ${
              sql.insert({
                site_id: row.owner.site_id,
                client_id: row.owner.client_id,
                return_id: row.return_id,
                order_ref: row.order_ref,
                customer_id: row.customer_id,
                reason_code: row.reason_code,
                notes: row.notes,
                status_id: Status.Open,
                created_at: row.created_at,
                created_by: row.created_by
              })
            } ON CONFLICT (site_id, return_id) DO NOTHING RETURNING id`
            if (inserted.length === 0) return Option.none<number>()
            const ref = inserted[0].id
            yield* sql`INSERT INTO return_lines ${sql.insert(row.lines.map((line) => ({ return_ref: ref, ...line })))}`
            return Option.some(ref)
          })
        ),
      addReceived: (ref, line, quantities) =>
        run(sql`UPDATE return_lines SET qty_restocked = qty_restocked + ${quantities.restocked},
        qty_quarantined = qty_quarantined + ${quantities.quarantined},
        qty_scrapped = qty_scrapped + ${quantities.scrapped}
        WHERE return_ref = ${ref} AND line = ${line}`),
      setStatus: (ref, statusId) => run(sql`UPDATE returns SET status_id = ${statusId} WHERE id = ${ref}`),
      authorizeReceived: (ref) =>
        run(sql`UPDATE return_lines SET qty_authorized = qty_restocked + qty_quarantined + qty_scrapped
        WHERE return_ref = ${ref}`)
    })
  })
)
