import { HttpApiBuilder } from "@effect/platform"
import { Receiving } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const ReceivingHandlers = HttpApiBuilder.group(WarehouseApi, "receiving", (handlers) =>
  Effect.gen(function*() {
    const receiving = yield* Receiving
    return handlers.handle("receive", ({ path, payload }) =>
      Effect.flatMap(CurrentActor, (actor) => receiving.receive(actor, path.id, payload ?? { lines: null })))
  }))
