import { Picking } from "@wms/core"
import type { ConfirmTaskRequest, TaskQuery } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, byText } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { PickingApi } from "./PickingApi.js"

export const PickingTable = Effect.map(Picking, (picking) => ({
  tasks: (actor, { urlParams }) => picking.tasks(actor, urlParams),
  confirm: (actor, { path, payload }) => picking.confirm(actor, path.id, payload ?? { qty: null }),
  ship: (actor, { path }) => picking.ship(actor, path.id)
} satisfies Table<typeof PickingApi>))

/** The facade's methods of `picking`: how each one's arguments make its endpoint's input. */
export const PickingMethods = {
  /** The scope's open pick tasks, optionally of one wave or SKU. */
  tasks: (query: TaskQuery = {}) => ({ urlParams: query }),
  /** Confirms a pick: the whole task, or `{ qty }` for a short pick (the rest is lost). */
  confirm: (id: number, payload: Body<typeof ConfirmTaskRequest> = {}) => ({ ...byNumber(id), payload }),
  /** Ships what was picked of the order (`POST /orders/:id/ship`). */
  ship: byText
} satisfies Methods<typeof PickingApi>

export const PickingHandlers = { table: PickingTable, methods: PickingMethods }
