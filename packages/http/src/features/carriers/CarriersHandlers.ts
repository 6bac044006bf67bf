import { Carriers } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { CarriersApi } from "./CarriersApi.js"

export const CarriersTable = Effect.map(Carriers, (carriers) => ({
  listCarriers: (actor, { urlParams }) => carriers.listCarriers(actor, urlParams),
  createCarrier: (actor, { payload }) => carriers.createCarrier(actor, payload),
  getCarrier: (actor, { path }) => carriers.getCarrier(actor, path.id),
  updateCarrier: (actor, { path, payload }) => carriers.updateCarrier(actor, path.id, payload),
  deleteCarrier: (actor, { path }) => carriers.deleteCarrier(actor, path.id)
} satisfies Table<typeof CarriersApi>))
