import { PickFaces, Replenishment } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { PickFacesApi, ReplenishmentApi } from "./PickFacesApi.js"

export const PickFacesTable = Effect.map(PickFaces, (faces) => ({
  listPickFaces: (actor, { urlParams }) => faces.list(actor, urlParams),
  getPickFace: (actor, { path }) => faces.get(actor, path.sku_id, path.loc_id),
  putPickFace: (actor, { path, payload }) => faces.put(actor, path.sku_id, path.loc_id, payload),
  deletePickFace: (actor, { path }) => faces.remove(actor, path.sku_id, path.loc_id)
} satisfies Table<typeof PickFacesApi>))

export const ReplenishmentTable = Effect.map(Replenishment, (replenishment) => ({
  runReplenishment: (actor, { payload }) => replenishment.run(actor, payload)
} satisfies Table<typeof ReplenishmentApi>))
