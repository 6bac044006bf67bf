import { Inventory, inWindow } from "@wms/core"
import type { AdjustmentRequest } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, everything } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { InventoryApi, OverviewQuery } from "./InventoryApi.js"

export const InventoryTable = Effect.map(Inventory, (inventory) => ({
  overview: (actor, { urlParams: { held, ...window } }) =>
    inWindow(inventory.overview(actor, held === undefined ? undefined : held === "true"), window),
  content: (actor, { path }) => inventory.content(actor, path.id),
  transactions: (actor, { urlParams }) => inWindow(inventory.transactions(actor), urlParams),
  transaction: (actor, { path }) => inventory.transaction(actor, path.id),
  lostAndFound: (actor, { urlParams }) => inWindow(inventory.lostAndFound(actor), urlParams),
  lostAndFoundItem: (actor, { path }) => inventory.lostAndFoundItem(actor, path.id),
  adjust: (actor, { payload }) => inventory.adjust(actor, payload)
} satisfies Table<typeof InventoryApi>))

/** The facade's methods of `inventory`: how each one's arguments make its endpoint's input. */
export const InventoryMethods = {
  /** The scope's contents; `{ held: "true" }` or `"false"` keeps the held or the free ones. */
  overview: (query: typeof OverviewQuery.Type = {}) => ({ urlParams: query }),
  content: byNumber,
  transactions: everything,
  transaction: byNumber,
  lostAndFound: everything,
  lostAndFoundItem: byNumber,
  /** A stock adjustment: `{content_id, qty}` or `{sku_id, loc_id, tag_id?, expiry_date?, qty}`. */
  adjust: (payload: Body<typeof AdjustmentRequest>) => ({ payload })
} satisfies Methods<typeof InventoryApi>

export const InventoryHandlers = { table: InventoryTable, methods: InventoryMethods }
