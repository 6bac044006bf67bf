import { Inventory, windowOf } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "./Table.js"

export const InventoryTable = Effect.map(Inventory, (inventory) => ({
  overview: (actor, { urlParams }) => Effect.map(inventory.overview(actor), (items) => windowOf(items, urlParams)),
  content: (actor, { path }) => inventory.content(actor, path.id),
  transactions: (actor, { urlParams }) =>
    Effect.map(inventory.transactions(actor), (items) => windowOf(items, urlParams)),
  transaction: (actor, { path }) => inventory.transaction(actor, path.id),
  lostAndFound: (actor, { urlParams }) =>
    Effect.map(inventory.lostAndFound(actor), (items) => windowOf(items, urlParams)),
  lostAndFoundItem: (actor, { path }) => inventory.lostAndFoundItem(actor, path.id),
  adjust: (actor, { payload }) => inventory.adjust(actor, payload)
} satisfies Table<"inventory">))
