import { Counts, defaultPlanSize } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { CountsApi } from "./CountsApi.js"

export const CountsTable = Effect.map(Counts, (counts) => ({
  listCounts: (actor, { urlParams }) => counts.list(actor, urlParams),
  createCount: (actor, { payload }) => counts.create(actor, payload),
  // An empty body plans with the defaults.
  planCounts: (actor, { payload }) =>
    counts.plan(actor, payload ?? { zone: null, loc_type: null, max: defaultPlanSize }),
  getCount: (actor, { path }) => counts.get(actor, path.id),
  releaseCount: (actor, { path }) => counts.release(actor, path.id),
  recordCount: (actor, { path, payload }) => counts.record(actor, path.id, payload),
  approveCount: (actor, { path, payload }) => counts.approve(actor, path.id, payload),
  recountCount: (actor, { path }) => counts.recount(actor, path.id),
  cancelCount: (actor, { path }) => counts.cancel(actor, path.id)
} satisfies Table<typeof CountsApi>))
