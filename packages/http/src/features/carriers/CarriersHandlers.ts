import { Carriers } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { CarriersApi } from "./CarriersApi.js"

export const CarriersTable = Effect.map(Carriers, (carriers) => ({
  listCarriers: (actor, { urlParams }) => carriers.list(actor, urlParams),
  createCarrier: (actor, { payload }) => carriers.create(actor, payload),
  getCarrier: (actor, { path }) => carriers.get(actor, path.id),
  updateCarrier: (actor, { path, payload }) => carriers.update(actor, path.id, payload),
  deleteCarrier: (actor, { path }) => carriers.remove(actor, path.id)
} satisfies Table<typeof CarriersApi>))
