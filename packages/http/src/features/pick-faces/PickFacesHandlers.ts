import { PickFaces, Replenishment } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
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
