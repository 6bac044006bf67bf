import { Counts, defaultPlanSize } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
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
