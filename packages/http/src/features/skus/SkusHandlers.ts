import { inWindow, pickMethods, SkuGroups, Skus } from "@wms/core"
import type { NewSku, NewSkuGroup, SkuGroupUpdate, SkuUpdate } from "@wms/core"
import { Effect } from "effect"
import { type Body, byText, windowed } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
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

/** The facade's methods of `skus`: how each one's arguments make its endpoint's input. */
export const SkusMethods = {
  listSkus: windowed,
  getSku: byText,
  createSku: (payload: Body<typeof NewSku>) => ({ payload }),
  /** Updates the SKU, or creates it when it does not exist yet (`PUT /skus/:id`). */
  updateSku: (id: string, payload: Body<typeof SkuUpdate>) => ({ ...byText(id), payload })
} satisfies Methods<typeof SkusApi>

export const SkusHandlers = { table: SkusTable, methods: SkusMethods }

/** The facade's methods of `skuGroups`: how each one's arguments make its endpoint's input. */
export const SkuGroupsMethods = {
  listSkuGroups: windowed,
  getSkuGroup: byText,
  /** Resolves to the generated `sku_group_id`. */
  createSkuGroup: (payload: Body<typeof NewSkuGroup>) => ({ payload }),
  updateSkuGroup: (id: string, payload: Body<typeof SkuGroupUpdate>) => ({ ...byText(id), payload }),
  deleteSkuGroup: byText
} satisfies Methods<typeof SkuGroupsApi>

export const SkuGroupsHandlers = { table: SkuGroupsTable, methods: SkuGroupsMethods }

/** The facade's methods of `pickMethods`: how each one's arguments make its endpoint's input. */
export const PickMethodsMethods = {
  listPickMethods: windowed
} satisfies Methods<typeof PickMethodsApi>

export const PickMethodsHandlers = { table: PickMethodsTable, methods: PickMethodsMethods }
