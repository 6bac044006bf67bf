import { Inventory, inWindow } from "@wms/core"
import type { AdjustmentRequest } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, everything } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { InventoryApi } from "./InventoryApi.js"

export const InventoryTable = Effect.map(Inventory, (inventory) => ({
  overview: (actor, { urlParams }) => inWindow(inventory.overview(actor), urlParams),
  content: (actor, { path }) => inventory.content(actor, path.id),
  transactions: (actor, { urlParams }) => inWindow(inventory.transactions(actor), urlParams),
  transaction: (actor, { path }) => inventory.transaction(actor, path.id),
  lostAndFound: (actor, { urlParams }) => inWindow(inventory.lostAndFound(actor), urlParams),
  lostAndFoundItem: (actor, { path }) => inventory.lostAndFoundItem(actor, path.id),
  adjust: (actor, { payload }) => inventory.adjust(actor, payload)
} satisfies Table<typeof InventoryApi>))

/** The facade's methods of `inventory`: how each one's arguments make its endpoint's input. */
export const InventoryMethods = {
  overview: everything,
  content: byNumber,
  transactions: everything,
  transaction: byNumber,
  lostAndFound: everything,
  lostAndFoundItem: byNumber,
  /** A stock adjustment: `{content_id, qty}` or `{sku_id, loc_id, tag_id?, expiry_date?, qty}`. */
  adjust: (payload: Body<typeof AdjustmentRequest>) => ({ payload })
} satisfies Methods<typeof InventoryApi>

export const InventoryHandlers = { table: InventoryTable, methods: InventoryMethods }
