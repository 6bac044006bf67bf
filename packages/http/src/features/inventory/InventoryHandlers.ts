import { Inventory, inWindow } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
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
