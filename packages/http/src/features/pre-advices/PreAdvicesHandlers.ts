import { PreAdvices } from "@wms/core"
import type {
  NewPreAdvice,
  PreAdviceChanges,
  PreAdviceLineChanges,
  PreAdviceLinesPayload,
  PreAdvicePage
} from "@wms/core"
import { Effect } from "effect"
import { type Body, byLine, byText } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
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

/** The facade's methods of `preAdvices`: how each one's arguments make its endpoint's input. */
export const PreAdvicesMethods = {
  listPreAdvices: (page: PreAdvicePage = {}) => ({ urlParams: page }),
  getPreAdvice: byText,
  createPreAdvice: (payload: Body<typeof NewPreAdvice>) => ({ payload }),
  updatePreAdvice: (id: string, payload: Body<typeof PreAdviceChanges>) => ({ ...byText(id), payload }),
  deletePreAdvice: byText,
  listPreAdviceLines: (id: string, page: PreAdvicePage = {}) => ({ ...byText(id), urlParams: page }),
  getPreAdviceLine: byLine,
  /** Adds one line or an array of lines. */
  addPreAdviceLines: (id: string, payload: Body<typeof PreAdviceLinesPayload>) => ({ ...byText(id), payload }),
  updatePreAdviceLine: (id: string, line: number, payload: Body<typeof PreAdviceLineChanges>) => ({
    ...byLine(id, line),
    payload
  }),
  deletePreAdviceLine: byLine
} satisfies Methods<typeof PreAdvicesApi>

export const PreAdvicesHandlers = { table: PreAdvicesTable, methods: PreAdvicesMethods }
