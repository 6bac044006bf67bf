import { HttpApiBuilder } from "@effect/platform"
import { PreAdvices } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

/** The handlers of the pre-advice endpoints: each calls the `PreAdvices` service with the caller. */
export const PreAdvicesHandlers = HttpApiBuilder.group(WarehouseApi, "preadvices", (handlers) =>
  Effect.gen(function*() {
    const preAdvices = yield* PreAdvices
    return handlers
      .handle("listPreAdvices", ({ urlParams }) => Effect.flatMap(CurrentActor, (actor) => preAdvices.list(actor, urlParams)))
      .handle("createPreAdvice", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => preAdvices.create(actor, payload)))
      .handle("getPreAdvice", ({ path }) => Effect.flatMap(CurrentActor, (actor) => preAdvices.get(actor, path.id)))
      .handle("updatePreAdvice", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => preAdvices.update(actor, path.id, payload)))
      .handle("deletePreAdvice", ({ path }) => Effect.flatMap(CurrentActor, (actor) => preAdvices.remove(actor, path.id)))
      .handle("listPreAdviceLines", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => preAdvices.listLines(actor, path.id, urlParams)))
      .handle("addPreAdviceLines", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => preAdvices.addLines(actor, path.id, payload)))
      .handle("getPreAdviceLine", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => preAdvices.getLine(actor, path.id, path.line_id)))
      .handle("updatePreAdviceLine", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => preAdvices.updateLine(actor, path.id, path.line_id, payload)))
      .handle("deletePreAdviceLine", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => preAdvices.removeLine(actor, path.id, path.line_id)))
  }))
