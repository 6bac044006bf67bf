import { ShippingUnits } from "@wms/core"
import type { NewShippingUnit, NewShippingUnitLine, ShippingUnitQuery, ShippingUnitUpdate } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, byText } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import { packingListCsv, wantsCsv } from "./PackingListCsv.js"
import type { ShippingUnitsApi } from "./ShippingUnitsApi.js"

export const ShippingUnitsTable = Effect.map(ShippingUnits, (units) => ({
  listShippingUnits: (actor, { urlParams }) => units.listShippingUnits(actor, urlParams),
  createShippingUnit: (actor, { payload }) => units.createShippingUnit(actor, payload),
  getShippingUnit: (actor, { path }) => units.getShippingUnit(actor, path.id),
  updateShippingUnit: (actor, { path, payload }) => units.updateShippingUnit(actor, path.id, payload),
  deleteShippingUnit: (actor, { path }) => units.deleteShippingUnit(actor, path.id),
  addShippingUnitLine: (actor, { path, payload }) => units.addShippingUnitLine(actor, path.id, payload),
  deleteShippingUnitLine: (actor, { path }) => units.deleteShippingUnitLine(actor, path.id, path.order_line),
  closeShippingUnit: (actor, { path }) => units.closeShippingUnit(actor, path.id),
  getPackingList: (actor, { headers, path }) =>
    // The facade gives no headers: it answers the JSON.
    wantsCsv(headers?.accept)
      ? Effect.map(units.getPackingList(actor, path.id), packingListCsv)
      : units.getPackingList(actor, path.id)
} satisfies Table<typeof ShippingUnitsApi>))

/** The facade's methods of `shippingUnits`: how each one's arguments make its endpoint's input. */
export const ShippingUnitsMethods = {
  /** The scope's units; the query's filters and window as the REST API takes them. */
  listShippingUnits: (query: typeof ShippingUnitQuery.Type = {}) => ({ urlParams: query }),
  /** Resolves to the new unit. */
  createShippingUnit: (payload: Body<typeof NewShippingUnit>) => ({ payload }),
  getShippingUnit: byNumber,
  updateShippingUnit: (id: number, payload: Body<typeof ShippingUnitUpdate>) => ({ ...byNumber(id), payload }),
  deleteShippingUnit: byNumber,
  addShippingUnitLine: (id: number, payload: Body<typeof NewShippingUnitLine>) => ({ ...byNumber(id), payload }),
  deleteShippingUnitLine: (id: number, orderLine: number) => ({ path: { id, order_line: orderLine } }),
  closeShippingUnit: byNumber,
  /** The packing list as JSON. */
  getPackingList: (id: string) => ({ ...byText(id), headers: {} })
} satisfies Methods<typeof ShippingUnitsApi>

export const ShippingUnitsHandlers = { table: ShippingUnitsTable, methods: ShippingUnitsMethods }
