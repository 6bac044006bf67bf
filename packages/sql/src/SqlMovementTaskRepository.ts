/**
 * Movement tasks on @effect/sql. Closing a task is an UPDATE guarded on its status Open, so a
 * confirm and a cancel of one task can never both apply.
 */
import { SqlClient } from "@effect/sql"
import { MovementTaskRepository, type StoredMovementTask } from "@wms/core"
import { Effect, Layer } from "effect"
import { type BulkInsert, makeBulkInsert } from "./Batches.js"
import { visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { Prepared } from "./Prepared.js"
import { first, query, returnsRow, rows, run } from "./Query.js"

const tasks: BulkInsert = {
  table: "movement_tasks",
  columns: [
    "site_id",
    "client_id",
    "task_type",
    "status_id",
    "content_id",
    "sku_id",
    "tag_id",
    "qty",
    "from_loc_id",
    "to_loc_id",
    "final_loc_id",
    "created_by",
    "reason",
    "created_at"
  ],
  returning: "id"
}

export const layer = Layer.effect(
  MovementTaskRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const prepared = yield* Prepared
    const bulkInsert = makeBulkInsert(sql, prepared)
    const stored = ["id", ...tasks.columns]
    const columnList = stored.map((column) => `t.${column}`).join(", ")
    const columns = sql.literal(columnList)
    // `find`'s statements, by lock and scope kind (a site's, or one client's).
    const finding = (lock: boolean, client: boolean) =>
      prepared.prepare<StoredMovementTask>(`SELECT ${columnList} FROM movement_tasks t
        WHERE t.site_id = ?${client ? " AND t.client_id = ?" : ""} AND t.id = ?${
        lock ? sql.onDialectOrElse({ pg: () => " FOR UPDATE", orElse: () => "" }) : ""
      }`)
    const find = {
      site: { locked: finding(true, false), read: finding(false, false) },
      client: { locked: finding(true, true), read: finding(false, true) }
    }
    // `complete`'s statements, by scope kind.
    const completing = (client: boolean) =>
      prepared.prepare<StoredMovementTask>(`UPDATE movement_tasks SET status_id = 20
        WHERE site_id = ?${client ? " AND client_id = ?" : ""} AND id = ? AND status_id = 1
        RETURNING ${stored.join(", ")}`)
    const complete = { site: completing(false), client: completing(true) }
    const redirecting = prepared.prepare(`UPDATE movement_tasks SET to_loc_id = ?, final_loc_id = ? WHERE id = ?`)
    const closingTask = prepared.prepare<{ id: number }>(`UPDATE movement_tasks SET status_id = ?, to_loc_id = ?,
      final_loc_id = ? WHERE id = ? AND status_id = 1 RETURNING id`)

    return MovementTaskRepository.of({
      list: (scope, filter, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<StoredMovementTask>`SELECT ${columns}${total} FROM movement_tasks t
          WHERE ${
              sql.and([
                visibleIn(sql, scope, "t"),
                sql`t.status_id = ${filter.status_id}`,
                ...(filter.task_type === undefined ? [] : [sql`t.task_type = ${filter.task_type}`]),
                ...(filter.sku_id === undefined ? [] : [sql`t.sku_id = ${filter.sku_id}`]),
                ...(filter.from_loc_id === undefined ? [] : [sql`t.from_loc_id = ${filter.from_loc_id}`]),
                ...(filter.to_loc_id === undefined ? [] : [sql`t.to_loc_id = ${filter.to_loc_id}`])
              ])
            }
          ORDER BY t.id ${windowClause(sql, page)}`)
        ),
      find: (scope, taskId, lock) =>
        first(
          scope.client_id === null
            ? find.site[lock ? "locked" : "read"]([scope.site_id, taskId])
            : find.client[lock ? "locked" : "read"]([scope.site_id, scope.client_id, taskId])
        ),
      insert: (newTasks) =>
        query(
          bulkInsert<typeof newTasks[number], { id: number }>(tasks, newTasks, (params, task) =>
            params.push(
              task.site_id,
              task.client_id,
              task.task_type,
              task.status_id,
              task.content_id,
              task.sku_id,
              task.tag_id,
              task.qty,
              task.from_loc_id,
              task.to_loc_id,
              task.final_loc_id,
              task.created_by,
              task.reason,
              task.created_at
            )),
          // Neither dialect promises RETURNING's order, but a statement numbers its rows in VALUES
          // order and the chunks run one after another: ascending ids are the tasks' order.
          (inserted) => inserted.map((row) => row.id).sort((a, b) => a - b)
        ),
      complete: (scope, taskId) =>
        first(
          scope.client_id === null
            ? complete.site([scope.site_id, taskId])
            : complete.client([scope.site_id, scope.client_id, taskId])
        ),
      redirect: (taskId, toLocId) => run(redirecting([toLocId, toLocId, taskId])),
      close: (taskId, closing) =>
        returnsRow(closingTask([closing.status_id, closing.to_loc_id, closing.final_loc_id, taskId]))
    })
  })
)
