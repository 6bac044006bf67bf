/**
 * Picking and shipping on @effect/sql. Every write that closes a task or moves stock is a
 * conditional UPDATE guarded by the state it expects, so two transactions can never both apply it.
 */
import { SqlClient } from "@effect/sql"
import { type ClaimRow, type OpenTaskCounts, PickingRepository, Status, type StatusId } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { lockClause, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, query, rows, run } from "./Query.js"

export const layer = Layer.effect(
  PickingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")

    return PickingRepository.of({
      openTasks: (scope, filter, window) =>
        rows(counted(sql, window, (page, total) =>
          sql<ClaimRow>`SELECT *${total} FROM claims c
          WHERE ${
            sql.and([
              visibleIn(sql, scope, "c"),
              sql`c.status = 'allocated'`,
              ...(filter.wave_id === undefined ? [] : [sql`c.wave_id = ${filter.wave_id}`]),
              ...(filter.sku_id === undefined ? [] : [sql`c.sku_id = ${filter.sku_id}`])
            ])
          }
          ORDER BY c.id ${windowClause(sql, page)}`)),
      findOpenTask: (scope, taskId) =>
        first(sql<ClaimRow>`SELECT * FROM claims c
          WHERE ${visibleIn(sql, scope, "c")} AND c.id = ${taskId} AND c.status = 'allocated'`),
      lockWave: (waveId) =>
        first(
          sql<{ status_id: StatusId }>`SELECT status_id FROM waves WHERE id = ${waveId} ${forUpdate}`,
          (row) => row.status_id
        ),
      // On PostgreSQL a transaction that waited for the lock re-checks the status on the row as the
      // winner left it, so the loser finds no open task.
      lockOpenTask: (taskId) =>
        first(sql<ClaimRow>`SELECT * FROM claims WHERE id = ${taskId} AND status = 'allocated' ${forUpdate}`),
      closeTask: (taskId, picked) =>
        query(Effect.gen(function*() {
          if (picked > 0) {
            const updated = yield* sql<{ id: number }>`UPDATE claims SET status = 'picked', qty = ${picked}
              WHERE id = ${taskId} AND status = 'allocated' RETURNING id`
            return updated.length === 1
          }
          const deleted = yield* sql<{ claimset_id: number }>`DELETE FROM claims
            WHERE id = ${taskId} AND status = 'allocated' RETURNING claimset_id`
          if (deleted.length === 0) return false
          yield* sql`DELETE FROM claimsets WHERE id = ${deleted[0].claimset_id}
            AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.claimset_id = claimsets.id)`
          return true
        })),
      takeAllocated: (contentId, qty) =>
        query(Effect.gen(function*() {
          const taken = yield* sql<{ content_id: number }>`UPDATE contents
            SET qty = qty - ${qty}, qty_allocated = qty_allocated - ${qty}
            WHERE content_id = ${contentId} AND qty_allocated >= ${qty} RETURNING content_id`
          if (taken.length === 0) return yield* Effect.dieMessage(`content ${contentId} does not hold ${qty} allocated`)
        })),
      addPicked: (orderRef, line, qty) =>
        run(sql`UPDATE order_lines SET qty_picked = qty_picked + ${qty}
          WHERE order_ref = ${orderRef} AND line = ${line}`),
      openTaskCounts: ({ claimsetId, orderRef, waveId }) =>
        query(
          sql<OpenTaskCounts>`SELECT
              (SELECT CAST(count(*) AS INTEGER) FROM claims
                WHERE order_ref = ${orderRef} AND status = 'allocated') AS "order",
              (SELECT CAST(count(*) AS INTEGER) FROM claims
                WHERE order_ref = ${orderRef} AND status = 'picked') AS "orderPicked",
              (SELECT CAST(count(*) AS INTEGER) FROM claims
                WHERE claimset_id = ${claimsetId} AND status = 'allocated') AS claimset,
              (SELECT CAST(count(*) AS INTEGER) FROM claims
                WHERE wave_id = ${waveId} AND status = 'allocated') AS wave`,
          ([counts]) => counts
        ),
      setClaimsetStatus: (claimsetId, status) =>
        run(sql`UPDATE claimsets SET status = ${status} WHERE id = ${claimsetId}`),
      openTasksOfOrder: (orderRef) =>
        query(
          sql<{ open_tasks: number }>`SELECT CAST(count(*) AS INTEGER) AS open_tasks FROM claims
            WHERE order_ref = ${orderRef} AND status = 'allocated'`,
          ([row]) => row.open_tasks
        ),
      pickedClaims: (orderRef) =>
        rows(sql<ClaimRow>`SELECT * FROM claims WHERE order_ref = ${orderRef} AND status = 'picked' ORDER BY id`),
      shipLines: (orderRef) => run(sql`UPDATE order_lines SET qty_shipped = qty_picked WHERE order_ref = ${orderRef}`),
      addBackordered: (orderRef, line, qty) =>
        run(sql`UPDATE order_lines SET qty_backordered = qty_backordered + ${qty}
          WHERE order_ref = ${orderRef} AND line = ${line}`),
      clearBackordered: (orderRef) =>
        run(sql`UPDATE order_lines SET qty_backordered = 0 WHERE order_ref = ${orderRef} AND qty_backordered > 0`),
      backorderCount: (siteId, orderId) =>
        query(
          sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM orders
            WHERE site_id = ${siteId} AND backorder_of = ${orderId}`,
          ([row]) => row.n
        ),
      insertBackorder: (orderRef, backorder) =>
        query(Effect.gen(function*() {
          const inserted = yield* sql<{ id: number }>`INSERT INTO orders
              (site_id, client_id, order_id, order_date, status_id, customer_id, ship_by_date, carrier_id, ship_dock,
                created_at, created_by, backorder_of, to_site)
            SELECT site_id, client_id, ${backorder.order_id}, order_date, ${Status.Released}, customer_id,
              ship_by_date, carrier_id, ship_dock, ${backorder.created_at}, ${backorder.created_by},
              ${backorder.backorder_of}, to_site
            FROM orders WHERE id = ${orderRef}
            ON CONFLICT (site_id, order_id) DO NOTHING RETURNING id`
          if (inserted.length === 0) return Option.none()
          const ref = inserted[0].id
          yield* sql`INSERT INTO order_lines (order_ref, line, sku_id, qty)
            SELECT ${ref}, line, sku_id, qty_backordered FROM order_lines
            WHERE order_ref = ${orderRef} AND qty_backordered > 0`
          return Option.some(ref)
        }))
    })
  })
)
