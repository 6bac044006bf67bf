/**
 * Pre-advices and their lines on @effect/sql, with the look-ups of the suppliers and SKUs they
 * refer to.
 */
import { SqlClient } from "@effect/sql"
import {
  ClientId,
  PreAdviceRepository,
  SiteId,
  type StatusId,
  type StoredPreAdvice,
  type StoredPreAdviceLine,
  UserId
} from "@wms/core"
import { Array as Arr, Effect, Layer } from "effect"
import { visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, query, returnsRow, rows, run } from "./Query.js"

interface PreAdviceRow {
  readonly id: number
  readonly site_id: string
  readonly pre_advice_id: string
  readonly client_id: string | null
  readonly status_id: number
  readonly supplier_id: number | null
  readonly supplier_name: string | null
  readonly created_at: string
  readonly created_by: string
  readonly transfer_order_id: string | null
  readonly from_site: string | null
  readonly reason_code: string | null
}

interface LineRow {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
  readonly qty_received: number
  readonly pallet_id: string | null
  readonly client_id: string | null
  readonly tag_id: string | null
  readonly expiry_date: string | null
  readonly qty_lost: number | null
}

const toPreAdvice = (row: PreAdviceRow): StoredPreAdvice => ({
  ref: row.id,
  site_id: SiteId.make(row.site_id),
  pre_advice_id: row.pre_advice_id,
  client_id: row.client_id === null ? null : ClientId.make(row.client_id),
  status_id: row.status_id as StatusId,
  supplier: row.supplier_id === null || row.supplier_name === null
    ? null
    : { id: row.supplier_id, name: row.supplier_name },
  created_at: row.created_at,
  created_by: UserId.make(row.created_by),
  transfer: row.transfer_order_id === null || row.from_site === null
    ? null
    : { order_id: row.transfer_order_id, from_site: row.from_site, reason_code: row.reason_code }
})

const toLine = (row: LineRow): StoredPreAdviceLine => ({
  line: row.line,
  sku_id: row.sku_id,
  qty: row.qty,
  qty_received: row.qty_received,
  pallet_id: row.pallet_id,
  client_id: row.client_id === null ? null : ClientId.make(row.client_id),
  tag_id: row.tag_id,
  expiry_date: row.expiry_date,
  qty_lost: row.qty_lost
})

/** Without the undefined fields: those stay as they are. */
const defined = <A extends Record<string, unknown>>(changes: A) =>
  Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))

// Rows per multi-row statement: well under SQLite's and PostgreSQL's limits on parameters.
const chunkSize = 500

/** The `PreAdviceRepository` on the `SqlClient` in context. */
export const layer = Layer.effect(
  PreAdviceRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const headerColumns = sql.literal(`p.id, p.site_id, p.pre_advice_id, p.client_id, p.status_id, p.supplier_id,
        s.name AS supplier_name, p.created_at, p.created_by, p.transfer_order_id, p.from_site, p.reason_code`)
    const headersFrom = sql.literal("FROM preadvices p LEFT JOIN suppliers s ON s.id = p.supplier_id")
    const selectHeader = sql`SELECT ${headerColumns} ${headersFrom}`

    const lineColumns = sql.literal(
      "line, sku_id, qty, qty_received, pallet_id, client_id, tag_id, expiry_date, qty_lost"
    )
    const selectLine = sql`SELECT ${lineColumns} FROM preadvice_lines`

    return PreAdviceRepository.of({
      list: (scope, page) =>
        rows(
          counted(sql, page, (window, total) =>
            sql<PreAdviceRow>`SELECT ${headerColumns}${total} ${headersFrom} WHERE ${visibleIn(sql, scope, "p")}
              ORDER BY p.id ${windowClause(sql, window)}`),
          toPreAdvice
        ),
      find: (siteId, preAdviceId) =>
        first(
          sql<PreAdviceRow>`${selectHeader} WHERE p.site_id = ${siteId} AND p.pre_advice_id = ${preAdviceId}`,
          toPreAdvice
        ),
      insert: (p) =>
        first(
          sql<{ id: number }>`INSERT INTO preadvices
              (site_id, pre_advice_id, client_id, status_id, supplier_id, created_at, created_by)
            VALUES (${p.site_id}, ${p.pre_advice_id}, ${p.client_id}, ${p.status_id}, ${p.supplier_id},
              ${p.created_at}, ${p.created_by})
            ON CONFLICT (site_id, pre_advice_id) DO NOTHING RETURNING id`,
          (row) => row.id
        ),
      // An UPDATE takes the row lock on PostgreSQL; SQLite's BEGIN IMMEDIATE already holds the file.
      lock: (ref) => returnsRow(sql`UPDATE preadvices SET status_id = status_id WHERE id = ${ref} RETURNING id`),
      update: (ref, changes) => {
        const set = defined(changes)
        return Object.keys(set).length === 0
          ? Effect.void
          : run(sql`UPDATE preadvices SET ${sql.update(set)} WHERE id = ${ref}`)
      },
      remove: (ref) =>
        query(Effect.gen(function*() {
          yield* sql`DELETE FROM preadvice_lines WHERE preadvice_ref = ${ref}`
          yield* sql`DELETE FROM preadvices WHERE id = ${ref}`
        })),
      lines: (ref, page) =>
        rows(
          counted(sql, page, (window, total) =>
            sql<LineRow>`SELECT ${lineColumns}${total} FROM preadvice_lines WHERE preadvice_ref = ${ref}
              ORDER BY line ${windowClause(sql, window)}`),
          toLine
        ),
      findLine: (ref, line) =>
        first(sql<LineRow>`${selectLine} WHERE preadvice_ref = ${ref} AND line = ${line}`, toLine),
      maxLine: (ref) =>
        query(
          sql<{ n: number }>`SELECT CAST(COALESCE(MAX(line), 0) AS INTEGER) AS n FROM preadvice_lines
            WHERE preadvice_ref = ${ref}`,
          ([row]) => row.n
        ),
      insertLines: (ref, lines) =>
        query(
          Effect.forEach(Arr.chunksOf(lines, chunkSize), (chunk) =>
            sql<{ line: number }>`INSERT INTO preadvice_lines ${
              sql.insert(chunk.map((line) => ({
                preadvice_ref: ref,
                line: line.line,
                sku_id: line.sku_id,
                qty: line.qty,
                pallet_id: line.pallet_id,
                client_id: line.client_id
              })))
            } ON CONFLICT (preadvice_ref, line) DO NOTHING RETURNING line`),
          (chunks) =>
            chunks.flatMap((inserted) =>
              inserted.map((row) => row.line)
            )
        ),
      updateLine: (ref, line, changes) => {
        const set = defined(changes)
        return Object.keys(set).length === 0
          ? Effect.void
          : run(sql`UPDATE preadvice_lines SET ${sql.update(set)} WHERE preadvice_ref = ${ref} AND line = ${line}`)
      },
      removeLine: (ref, line) => run(sql`DELETE FROM preadvice_lines WHERE preadvice_ref = ${ref} AND line = ${line}`),
      supplierName: (scope, supplierId) =>
        first(
          sql<{ name: string }>`SELECT s.name FROM suppliers s
            WHERE s.id = ${supplierId} AND ${visibleIn(sql, scope, "s")}`,
          (row) => row.name
        ),
      visibleSkus: (scope, skuIds) =>
        query(
          Effect.forEach(Arr.chunksOf(skuIds, chunkSize), (chunk) =>
            sql<{ sku_id: string }>`SELECT k.sku_id FROM skus k
              WHERE ${visibleIn(sql, scope, "k")} AND k.sku_id IN ${sql.in(chunk)}`),
          (chunks) => new Set(chunks.flatMap((found) => found.map((row) => row.sku_id)))
        )
    })
  })
)
