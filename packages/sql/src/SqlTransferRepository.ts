/**
 * Transfers between sites on @effect/sql (spec §3): a transfer is a pre-advice at its destination
 * that names its order and source site (migration 0160), so its lines in transit are read off
 * `preadvices` and `preadvice_lines`, from either end.
 */
import { SqlClient } from "@effect/sql"
import { type InTransitRow, Status, type StatusId, TransferRepository } from "@wms/core"
import { Array as Arr, Effect, Layer, Option } from "effect"
import { windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { query, rows, run } from "./Query.js"

// Rows per multi-row statement: well under SQLite's and PostgreSQL's limits on parameters.
const chunkSize = 500

export const layer = Layer.effect(
  TransferRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const open = [Status.InTransit, Status.InReceipt]

    return TransferRepository.of({
      insertTransfer: (transfer) =>
        query(Effect.gen(function*() {
          const inserted = yield* sql<{ id: number }>`INSERT INTO preadvices
              (site_id, pre_advice_id, client_id, status_id, supplier_id, created_at, created_by,
                transfer_order_id, from_site)
            VALUES (${transfer.site_id}, ${transfer.pre_advice_id}, NULL, ${transfer.status_id}, NULL,
              ${transfer.created_at}, ${transfer.created_by}, ${transfer.order_id}, ${transfer.from_site})
            ON CONFLICT (site_id, pre_advice_id) DO NOTHING RETURNING id`
          if (inserted.length === 0) return Option.none()
          const ref = inserted[0].id
          for (const chunk of Arr.chunksOf(transfer.lines, chunkSize)) {
            yield* sql`INSERT INTO preadvice_lines ${
              sql.insert(chunk.map((line) => ({
                preadvice_ref: ref,
                line: line.line,
                sku_id: line.sku_id,
                qty: line.qty,
                qty_received: 0,
                pallet_id: null,
                client_id: null,
                tag_id: line.tag_id,
                expiry_date: line.expiry_date,
                qty_lost: 0
              })))
            }`
          }
          return Option.some(ref)
        })),
      inTransit: (siteId, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<InTransitRow>`SELECT p.pre_advice_id, p.transfer_order_id AS order_id, p.from_site,
                p.site_id AS to_site, p.status_id, p.created_at, l.line, l.sku_id, l.tag_id, l.expiry_date, l.qty,
                l.qty_received${total}
              FROM preadvices p JOIN preadvice_lines l ON l.preadvice_ref = p.id
              WHERE (p.site_id = ${siteId} OR p.from_site = ${siteId}) AND p.transfer_order_id IS NOT NULL
                AND p.status_id IN ${sql.in(open)} AND l.qty > l.qty_received
              ORDER BY p.id, l.line ${windowClause(sql, page)}`),
          (row): InTransitRow => ({ ...row, status_id: row.status_id as StatusId })
        ),
      close: (ref, status, reasonCode) =>
        run(Effect.zipRight(
          sql`UPDATE preadvice_lines SET qty_lost = qty - qty_received WHERE preadvice_ref = ${ref}`,
          sql`UPDATE preadvices SET status_id = ${status}, reason_code = ${reasonCode} WHERE id = ${ref}`
        ))
    })
  })
)
