import { PreAdvices } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { PreAdvicesApi } from "./PreAdvicesApi.js"

export const PreAdvicesTable = Effect.map(PreAdvices, (preAdvices) => ({
  listPreAdvices: (actor, { urlParams }) => preAdvices.list(actor, urlParams),
  createPreAdvice: (actor, { payload }) => preAdvices.create(actor, payload),
  getPreAdvice: (actor, { path }) => preAdvices.get(actor, path.id),
  updatePreAdvice: (actor, { path, payload }) => preAdvices.update(actor, path.id, payload),
  deletePreAdvice: (actor, { path }) => preAdvices.remove(actor, path.id),
  listPreAdviceLines: (actor, { path, urlParams }) => preAdvices.listLines(actor, path.id, urlParams),
  addPreAdviceLines: (actor, { path, payload }) => preAdvices.addLines(actor, path.id, payload),
  getPreAdviceLine: (actor, { path }) => preAdvices.getLine(actor, path.id, path.line_id),
  updatePreAdviceLine: (actor, { path, payload }) => preAdvices.updateLine(actor, path.id, path.line_id, payload),
  deletePreAdviceLine: (actor, { path }) => preAdvices.removeLine(actor, path.id, path.line_id)
} satisfies Table<typeof PreAdvicesApi>))
