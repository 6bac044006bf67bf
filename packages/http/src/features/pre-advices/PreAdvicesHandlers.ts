import { PreAdvices } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { PreAdvicesApi } from "./PreAdvicesApi.js"

export const PreAdvicesTable = Effect.map(PreAdvices, (preAdvices) => ({
  listPreAdvices: (actor, { urlParams }) => preAdvices.listPreAdvices(actor, urlParams),
  createPreAdvice: (actor, { payload }) => preAdvices.createPreAdvice(actor, payload),
  getPreAdvice: (actor, { path }) => preAdvices.getPreAdvice(actor, path.id),
  updatePreAdvice: (actor, { path, payload }) => preAdvices.updatePreAdvice(actor, path.id, payload),
  deletePreAdvice: (actor, { path }) => preAdvices.deletePreAdvice(actor, path.id),
  listPreAdviceLines: (actor, { path, urlParams }) => preAdvices.listPreAdviceLines(actor, path.id, urlParams),
  addPreAdviceLines: (actor, { path, payload }) => preAdvices.addPreAdviceLines(actor, path.id, payload),
  getPreAdviceLine: (actor, { path }) => preAdvices.getPreAdviceLine(actor, path.id, path.line_id),
  updatePreAdviceLine: (actor, { path, payload }) =>
    preAdvices.updatePreAdviceLine(actor, path.id, path.line_id, payload),
  deletePreAdviceLine: (actor, { path }) => preAdvices.deletePreAdviceLine(actor, path.id, path.line_id)
} satisfies Table<typeof PreAdvicesApi>))
