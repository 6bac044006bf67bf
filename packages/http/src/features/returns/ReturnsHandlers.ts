import { Returns } from "@wms/core"
import type { NewReturn, ReturnQuery, ReturnReceipt } from "@wms/core"
import { Effect, Option } from "effect"
import { type Body, byText } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { ReturnsApi } from "./ReturnsApi.js"

export const ReturnsTable = Effect.map(Returns, (returns) => ({
  listReturns: (actor, { urlParams }) => returns.listReturns(actor, urlParams),
  createReturn: (actor, { payload }) => returns.createReturn(actor, payload),
  getReturn: (actor, { path }) => returns.getReturn(actor, path.id),
  // With putaway, 200 with its report; without, 204.
  receiveReturn: (actor, { path, payload }) =>
    Effect.map(returns.receiveReturn(actor, path.id, payload), Option.getOrUndefined),
  closeReturn: (actor, { path }) => returns.closeReturn(actor, path.id),
  deleteReturn: (actor, { path }) => returns.deleteReturn(actor, path.id)
} satisfies Table<typeof ReturnsApi>))

/** The facade's methods of `returns`: how each one's arguments make its endpoint's input. */
export const ReturnsMethods = {
  /** The scope's returns; the query's filters and window as the REST API takes them. */
  listReturns: (query: typeof ReturnQuery.Type = {}) => ({ urlParams: query }),
  /** Resolves to the new return. */
  createReturn: (payload: Body<typeof NewReturn>) => ({ payload }),
  getReturn: byText,
  /** With the site's `putaway_on_receipt`, resolves to `{tasks, unplaced}`; without, to nothing. */
  receiveReturn: (id: string, payload: Body<typeof ReturnReceipt>) => ({ ...byText(id), payload }),
  closeReturn: byText,
  deleteReturn: byText
} satisfies Methods<typeof ReturnsApi>

export const ReturnsHandlers = { table: ReturnsTable, methods: ReturnsMethods }
