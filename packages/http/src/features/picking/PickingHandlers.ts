import { Picking } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { PickingApi } from "./PickingApi.js"

export const PickingTable = Effect.map(Picking, (picking) => ({
  tasks: (actor, { urlParams }) => picking.tasks(actor, urlParams),
  confirm: (actor, { path, payload }) => picking.confirm(actor, path.id, payload ?? { qty: null }),
  ship: (actor, { path }) => picking.ship(actor, path.id)
} satisfies Table<typeof PickingApi>))
