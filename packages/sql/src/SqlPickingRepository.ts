/**
 * Picking and shipping on @effect/sql. Every write that closes a task or moves stock is a
 * conditional UPDATE guarded by the state it expects, so two transactions can never both apply it.
 */
import { SqlClient } from "@effect/sql"
import { type ClaimRow, type OpenTaskCounts, PickingRepository, type Scope, type StatusId } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { lockClause, windowClause } from "./SqlMasterData.js"

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

export const layer = Layer.effect(
  PickingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")

    const visible = (scope: Scope) =>
      scope.client_id === null
        ? sql`c.site_id = ${scope.site_id}`
        : sql`c.site_id = ${scope.site_id} AND c.client_id = ${scope.client_id}`

    return PickingRepository.of({
      openTasks: (scope, filter, window) =>
        sql<ClaimRow>`SELECT * FROM claims c
          WHERE ${
          sql.and([
            visible(scope),
            sql`c.status = 'allocated'`,
            ...(filter.wave_id === undefined ? [] : [sql`c.wave_id = ${filter.wave_id}`]),
            ...(filter.sku_id === undefined ? [] : [sql`c.sku_id = ${filter.sku_id}`])
          ])
        }
          ORDER BY c.id ${windowClause(sql, window)}`.pipe(
          Effect.orDie
        ),
      findOpenTask: (scope, taskId) =>
        sql<ClaimRow>`SELECT * FROM claims c WHERE ${visible(scope)} AND c.id = ${taskId} AND c.status = 'allocated'`
          .pipe(Effect.map(first), Effect.orDie),
      lockWave: (waveId) =>
        sql<{ status_id: StatusId }>`SELECT status_id FROM waves WHERE id = ${waveId} ${forUpdate}`.pipe(
          Effect.map((rows) => Option.map(first(rows), (row) => row.status_id)),
          Effect.orDie
        ),
      // On PostgreSQL a transaction that waited for the lock re-checks the status on the row as the
      // winner left it, so the loser finds no open task.
      lockOpenTask: (taskId) =>
        sql<ClaimRow>`SELECT * FROM claims WHERE id = ${taskId} AND status = 'allocated' ${forUpdate}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      closeTask: (taskId, picked) =>
        Effect.gen(function*() {
          if (picked > 0) {
            const rows = yield* sql<{ id: number }>`UPDATE claims SET status = 'picked', qty = ${picked}
              WHERE id = ${taskId} AND status = 'allocated' RETURNING id`
            return rows.length === 1
          }
          const rows = yield* sql<{ claimset_id: number }>`DELETE FROM claims
            WHERE id = ${taskId} AND status = 'allocated' RETURNING claimset_id`
          if (rows.length === 0) return false
          yield* sql`DELETE FROM claimsets WHERE id = ${rows[0].claimset_id}
            AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.claimset_id = claimsets.id)`
          return true
        }).pipe(Effect.orDie),
      takeAllocated: (contentId, qty) =>
        Effect.gen(function*() {
          const rows = yield* sql<{ content_id: number }>`UPDATE contents
            SET qty = qty - ${qty}, qty_allocated = qty_allocated - ${qty}
            WHERE content_id = ${contentId} AND qty_allocated >= ${qty} RETURNING content_id`
          if (rows.length === 0) return yield* Effect.dieMessage(`content ${contentId} does not hold ${qty} allocated`)
        }).pipe(Effect.orDie),
      addPicked: (orderRef, line, qty) =>
        sql`UPDATE order_lines SET qty_picked = qty_picked + ${qty} WHERE order_ref = ${orderRef} AND line = ${line}`
          .pipe(Effect.asVoid, Effect.orDie),
      openTaskCounts: ({ claimsetId, orderRef, waveId }) =>
        sql<OpenTaskCounts>`SELECT
            (SELECT CAST(count(*) AS INTEGER) FROM claims
              WHERE order_ref = ${orderRef} AND status = 'allocated') AS "order",
            (SELECT CAST(count(*) AS INTEGER) FROM claims
              WHERE order_ref = ${orderRef} AND status = 'picked') AS "orderPicked",
            (SELECT CAST(count(*) AS INTEGER) FROM claims
              WHERE claimset_id = ${claimsetId} AND status = 'allocated') AS claimset,
            (SELECT CAST(count(*) AS INTEGER) FROM claims
              WHERE wave_id = ${waveId} AND status = 'allocated') AS wave`.pipe(
          Effect.map((rows) => rows[0]),
          Effect.orDie
        ),
      setClaimsetStatus: (claimsetId, status) =>
        sql`UPDATE claimsets SET status = ${status} WHERE id = ${claimsetId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      openTasksOfOrder: (orderRef) =>
        sql<{ open_tasks: number }>`SELECT CAST(count(*) AS INTEGER) AS open_tasks FROM claims
          WHERE order_ref = ${orderRef} AND status = 'allocated'`.pipe(
          Effect.map((rows) => rows[0].open_tasks),
          Effect.orDie
        ),
      pickedClaims: (orderRef) =>
        sql<ClaimRow>`SELECT * FROM claims WHERE order_ref = ${orderRef} AND status = 'picked' ORDER BY id`.pipe(
          Effect.orDie
        ),
      shipLines: (orderRef) =>
        sql`UPDATE order_lines SET qty_shipped = qty_picked WHERE order_ref = ${orderRef}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
