import { Receiving } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "./Table.js"

export const ReceivingTable = Effect.map(Receiving, (receiving) => ({
  receive: (actor, { path, payload }) => receiving.receive(actor, path.id, payload ?? { lines: null })
} satisfies Table<"receiving">))
