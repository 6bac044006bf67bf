import { HttpApiBuilder } from "@effect/platform"
import { Picking } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const PickingHandlers = HttpApiBuilder.group(WarehouseApi, "picking", (handlers) =>
  Effect.gen(function*() {
    const picking = yield* Picking
    return handlers
      .handle("tasks", ({ urlParams }) => Effect.flatMap(CurrentActor, (actor) => picking.tasks(actor, urlParams)))
      .handle("confirm", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => picking.confirm(actor, path.id, payload ?? { qty: null })))
      .handle("ship", ({ path }) => Effect.flatMap(CurrentActor, (actor) => picking.ship(actor, path.id)))
  }))
