import { Counts, defaultPlanSize } from "@wms/core"
import type { ApproveCountRequest, CountQuery, NewCountRequest, PlanCountsRequest, RecordCountRequest } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { CountsApi } from "./CountsApi.js"

export const CountsTable = Effect.map(Counts, (counts) => ({
  listCounts: (actor, { urlParams }) => counts.listCounts(actor, urlParams),
  createCount: (actor, { payload }) => counts.createCount(actor, payload),
  // An empty body plans with the defaults.
  planCounts: (actor, { payload }) =>
    counts.planCounts(actor, payload ?? { zone: null, loc_type: null, max: defaultPlanSize }),
  getCount: (actor, { path }) => counts.getCount(actor, path.id),
  releaseCount: (actor, { path }) => counts.releaseCount(actor, path.id),
  recordCount: (actor, { path, payload }) => counts.recordCount(actor, path.id, payload),
  approveCount: (actor, { path, payload }) => counts.approveCount(actor, path.id, payload),
  recountCount: (actor, { path }) => counts.recountCount(actor, path.id),
  cancelCount: (actor, { path }) => counts.cancelCount(actor, path.id)
} satisfies Table<typeof CountsApi>))

/** The facade's methods of `counts`: how each one's arguments make its endpoint's input. */
export const CountsMethods = {
  /** The site's counts, every status unless `status` says; optional filters `loc_id`, `zone`. */
  listCounts: (query: CountQuery = {}) => ({ urlParams: query }),
  getCount: byNumber,
  /** An Open count of a managed location (`{loc_id, sku_id?, blind?, assignee?, reason?}`); resolves to it. */
  createCount: (payload: Body<typeof NewCountRequest>) => ({ payload }),
  /** Open counts of the locations counted longest ago (`{zone?, loc_type?, max?}`); resolves to them. */
  planCounts: (payload: Body<typeof PlanCountsRequest> = {}) => ({ payload }),
  /** Freezes the location and snapshots what it holds. */
  releaseCount: byNumber,
  /** Records counted lines; applies the count when every line is within the threshold. */
  recordCount: (id: number, payload: Body<typeof RecordCountRequest>) => ({ ...byNumber(id), payload }),
  /** Applies a Pending Approval count with `{reason_code}` (admins). */
  approveCount: (id: number, payload: Body<typeof ApproveCountRequest>) => ({ ...byNumber(id), payload }),
  recountCount: byNumber,
  cancelCount: byNumber
} satisfies Methods<typeof CountsApi>

export const CountsHandlers = { table: CountsTable, methods: CountsMethods }
