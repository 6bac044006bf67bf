import { PickFaces, Replenishment } from "@wms/core"
import type { PickFaceQuery, PickFaceSetting, ReplenishmentRunRequest } from "@wms/core"
import { Effect } from "effect"
import { type Body } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { PickFacesApi, ReplenishmentApi } from "./PickFacesApi.js"

export const PickFacesTable = Effect.map(PickFaces, (faces) => ({
  listPickFaces: (actor, { urlParams }) => faces.listPickFaces(actor, urlParams),
  getPickFace: (actor, { path }) => faces.getPickFace(actor, path.sku_id, path.loc_id),
  putPickFace: (actor, { path, payload }) => faces.putPickFace(actor, path.sku_id, path.loc_id, payload),
  deletePickFace: (actor, { path }) => faces.deletePickFace(actor, path.sku_id, path.loc_id)
} satisfies Table<typeof PickFacesApi>))

export const ReplenishmentTable = Effect.map(Replenishment, (replenishment) => ({
  runReplenishment: (actor, { payload }) => replenishment.runReplenishment(actor, payload)
} satisfies Table<typeof ReplenishmentApi>))

const byFace = (skuId: string, locId: string) => ({ path: { sku_id: skuId, loc_id: locId } })

/** The facade's methods of `pickFaces`: how each one's arguments make its endpoint's input. */
export const PickFacesMethods = {
  /** The pick-face settings with each face's stock; optional filters `sku_id`, `loc_id`. */
  listPickFaces: (query: PickFaceQuery = {}) => ({ urlParams: query }),
  getPickFace: byFace,
  /** Upserts `{min_qty, max_qty, replenish_multiple?}` of the SKU at the PickFace location. */
  putPickFace: (skuId: string, locId: string, payload: Body<typeof PickFaceSetting>) => ({
    ...byFace(skuId, locId),
    payload
  }),
  deletePickFace: byFace
} satisfies Methods<typeof PickFacesApi>

export const PickFacesHandlers = { table: PickFacesTable, methods: PickFacesMethods }

/** The facade's methods of `replenishment`: how each one's arguments make its endpoint's input. */
export const ReplenishmentMethods = {
  /** Opens the Replenish tasks the faces (of `sku_id`, or `zone`) need; resolves to `{tasks}`. */
  runReplenishment: (payload: Body<typeof ReplenishmentRunRequest> = {}) => ({ payload })
} satisfies Methods<typeof ReplenishmentApi>

export const ReplenishmentHandlers = { table: ReplenishmentTable, methods: ReplenishmentMethods }
