import { MovementTasks } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { MovementTasksApi } from "./MovementTasksApi.js"

export const MovementTasksTable = Effect.map(MovementTasks, (tasks) => ({
  listMovementTasks: (actor, { urlParams }) => tasks.list(actor, urlParams),
  createMovementTask: (actor, { payload }) => tasks.create(actor, payload),
  getMovementTask: (actor, { path }) => tasks.get(actor, path.id),
  // An empty body confirms the whole task to its planned destination.
  confirmMovementTask: (actor, { path, payload }) =>
    tasks.confirm(actor, path.id, payload ?? { qty: null, to_loc_id: null }),
  cancelMovementTask: (actor, { path }) => tasks.cancel(actor, path.id),
  createPutawayTasks: (actor, { payload }) => tasks.putaway(actor, payload)
} satisfies Table<typeof MovementTasksApi>))
