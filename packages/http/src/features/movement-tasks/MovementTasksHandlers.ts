import { MovementTasks } from "@wms/core"
import type { ConfirmMoveRequest, MovementTaskQuery, NewMoveRequest, PutawayRequest } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
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

/** The facade's methods of `movementTasks`: how each one's arguments make its endpoint's input. */
export const MovementTasksMethods = {
  /** The scope's Open movement tasks, or those of `status_id`, with optional filters. */
  listMovementTasks: (query: MovementTaskQuery = {}) => ({ urlParams: query }),
  getMovementTask: byNumber,
  /** A Move task: `{content_id, qty, to_loc_id}` or `{sku_id, from_loc_id, tag_id?, qty, to_loc_id}`; resolves to it. */
  createMovementTask: (payload: Body<typeof NewMoveRequest>) => ({ payload }),
  /** Carries the task's stock, or `{ qty }` of it, to its destination or `{ to_loc_id }`. */
  confirmMovementTask: (id: number, payload: Body<typeof ConfirmMoveRequest> = {}) => ({ ...byNumber(id), payload }),
  cancelMovementTask: byNumber,
  /** Putaway tasks for a content at a receiving location; resolves to the tasks made. */
  createPutawayTasks: (payload: Body<typeof PutawayRequest>) => ({ payload })
} satisfies Methods<typeof MovementTasksApi>

export const MovementTasksHandlers = { table: MovementTasksTable, methods: MovementTasksMethods }
