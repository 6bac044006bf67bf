import { Carriers } from "@wms/core"
import type { CarrierInput } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, windowed } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { CarriersApi } from "./CarriersApi.js"

export const CarriersTable = Effect.map(Carriers, (carriers) => ({
  listCarriers: (actor, { urlParams }) => carriers.listCarriers(actor, urlParams),
  createCarrier: (actor, { payload }) => carriers.createCarrier(actor, payload),
  getCarrier: (actor, { path }) => carriers.getCarrier(actor, path.id),
  updateCarrier: (actor, { path, payload }) => carriers.updateCarrier(actor, path.id, payload),
  deleteCarrier: (actor, { path }) => carriers.deleteCarrier(actor, path.id)
} satisfies Table<typeof CarriersApi>))

/** The facade's methods of `carriers`: how each one's arguments make its endpoint's input. */
export const CarriersMethods = {
  listCarriers: windowed,
  getCarrier: byNumber,
  /** Resolves to the new carrier's id. */
  createCarrier: (payload: Body<typeof CarrierInput>) => ({ payload }),
  updateCarrier: (id: number, payload: Body<typeof CarrierInput>) => ({ ...byNumber(id), payload }),
  deleteCarrier: byNumber
} satisfies Methods<typeof CarriersApi>

export const CarriersHandlers = { table: CarriersTable, methods: CarriersMethods }
