import { Holds } from "@wms/core"
import type { HoldQuery, NewHold, ReleaseHold } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { HoldsApi } from "./HoldsApi.js"

export const HoldsTable = Effect.map(Holds, (holds) => ({
  listHolds: (actor, { urlParams }) => holds.listHolds(actor, urlParams),
  createHold: (actor, { payload }) => holds.createHold(actor, payload),
  getHold: (actor, { path }) => holds.getHold(actor, path.id),
  // An empty body releases without notes.
  releaseHold: (actor, { path, payload }) => holds.releaseHold(actor, path.id, payload ?? { notes: null })
} satisfies Table<typeof HoldsApi>))

/** The facade's methods of `holds`: how each one's arguments make its endpoint's input. */
export const HoldsMethods = {
  /** The scope's Active holds, or those of `status_id`, with optional filters. */
  listHolds: (query: typeof HoldQuery.Type = {}) => ({ urlParams: query }),
  /** Resolves to the new hold. */
  createHold: (payload: Body<typeof NewHold>) => ({ payload }),
  getHold: byNumber,
  releaseHold: (id: number, payload: Body<typeof ReleaseHold> = {}) => ({ ...byNumber(id), payload })
} satisfies Methods<typeof HoldsApi>

export const HoldsHandlers = { table: HoldsTable, methods: HoldsMethods }
