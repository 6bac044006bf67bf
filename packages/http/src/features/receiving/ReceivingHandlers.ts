import { Receiving } from "@wms/core"
import { Effect, Option } from "effect"
import type { Table } from "../Table.js"
import type { ReceivingApi } from "./ReceivingApi.js"

export const ReceivingTable = Effect.map(Receiving, (receiving) => ({
  // With putaway, 200 with its report; without, 204 as before putaway existed.
  receive: (actor, { path, payload }) =>
    Effect.map(receiving.receive(actor, path.id, payload ?? { lines: null, putaway: null }), Option.getOrUndefined)
} satisfies Table<typeof ReceivingApi>))
