import { HttpApiBuilder } from "@effect/platform"
import { Carriers } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const CarriersHandlers = HttpApiBuilder.group(WarehouseApi, "carriers", (handlers) =>
  Effect.gen(function*() {
    const carriers = yield* Carriers
    return handlers
      .handle("listCarriers", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => carriers.list(actor, urlParams)))
      .handle("createCarrier", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(carriers.create(actor, payload))))
      .handle("getCarrier", ({ path }) => Effect.flatMap(CurrentActor, (actor) => carriers.get(actor, path.id)))
      .handle("updateCarrier", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => carriers.update(actor, path.id, payload)))
      .handle("deleteCarrier", ({ path }) => Effect.flatMap(CurrentActor, (actor) => carriers.remove(actor, path.id)))
  }))
