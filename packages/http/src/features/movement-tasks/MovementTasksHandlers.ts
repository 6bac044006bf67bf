import { MovementTasks } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { MovementTasksApi } from "./MovementTasksApi.js"

export const MovementTasksTable = Effect.map(MovementTasks, (tasks) => ({
  listMovementTasks: (actor, { urlParams }) => tasks.listMovementTasks(actor, urlParams),
  createMovementTask: (actor, { payload }) => tasks.createMovementTask(actor, payload),
  getMovementTask: (actor, { path }) => tasks.getMovementTask(actor, path.id),
  // An empty body confirms the whole task to its planned destination.
  confirmMovementTask: (actor, { path, payload }) =>
    tasks.confirmMovementTask(actor, path.id, payload ?? { qty: null, to_loc_id: null }),
  cancelMovementTask: (actor, { path }) => tasks.cancelMovementTask(actor, path.id),
  createPutawayTasks: (actor, { payload }) => tasks.createPutawayTasks(actor, payload)
} satisfies Table<typeof MovementTasksApi>))
