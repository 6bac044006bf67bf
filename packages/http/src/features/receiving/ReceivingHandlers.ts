import { Receiving } from "@wms/core"
import type { ReceiptRequest } from "@wms/core"
import { Effect, Option } from "effect"
import { type Body, byText } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { ReceivingApi } from "./ReceivingApi.js"

export const ReceivingTable = Effect.map(Receiving, (receiving) => ({
  // With putaway, 200 with its report; without, 204 as before putaway existed.
  receive: (actor, { path, payload }) =>
    Effect.map(receiving.receive(actor, path.id, payload ?? { lines: null, putaway: null }), Option.getOrUndefined)
} satisfies Table<typeof ReceivingApi>))

/** The facade's methods of `receiving`: how each one's arguments make its endpoint's input. */
export const ReceivingMethods = {
  /**
   * Receives the given lines of a pre-advice, or without `lines` everything still expected, into
   * stock. With putaway (`putaway: true`, or the site's `putaway_on_receipt`) resolves to
   * `{tasks, unplaced}`; without, to nothing.
   */
  receive: (id: string, payload: Body<typeof ReceiptRequest> = {}) => ({ ...byText(id), payload })
} satisfies Methods<typeof ReceivingApi>

export const ReceivingHandlers = { table: ReceivingTable, methods: ReceivingMethods }
