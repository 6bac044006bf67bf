import { inWindow, pickMethods, SkuGroups, Skus } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { PickMethodsApi, SkuGroupsApi, SkusApi } from "./SkusApi.js"

export const SkusTable = Effect.map(Skus, (skus) => ({
  listSkus: (actor, { urlParams }) => skus.listSkus(actor, urlParams),
  createSku: (actor, { payload }) => skus.createSku(actor, payload),
  getSku: (actor, { path }) => skus.getSku(actor, path.id),
  updateSku: (actor, { path, payload }) => skus.updateSku(actor, path.id, payload)
} satisfies Table<typeof SkusApi>))

export const SkuGroupsTable = Effect.map(SkuGroups, (groups) => ({
  listSkuGroups: (actor, { urlParams }) => groups.listSkuGroups(actor, urlParams),
  createSkuGroup: (actor, { payload }) => groups.createSkuGroup(actor, payload),
  getSkuGroup: (actor, { path }) => groups.getSkuGroup(actor, path.id),
  updateSkuGroup: (actor, { path, payload }) => groups.updateSkuGroup(actor, path.id, payload),
  deleteSkuGroup: (actor, { path }) => groups.deleteSkuGroup(actor, path.id)
} satisfies Table<typeof SkuGroupsApi>))

/** The pick methods are fixed: the same for every caller the group's security lets through. */
export const PickMethodsTable = Effect.succeed(
  {
    listPickMethods: (_actor, { urlParams }) => inWindow(Effect.succeed(pickMethods), urlParams)
  } satisfies Table<typeof PickMethodsApi>
)
