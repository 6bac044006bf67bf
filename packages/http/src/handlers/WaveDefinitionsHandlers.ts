import { HttpApiBuilder } from "@effect/platform"
import { WaveDefinitions } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const WaveDefinitionsHandlers = HttpApiBuilder.group(WarehouseApi, "waveDefinitions", (handlers) =>
  Effect.gen(function*() {
    const definitions = yield* WaveDefinitions
    return handlers
      .handle("listWaveDefinitions", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => definitions.list(actor, urlParams)))
      .handle("createWaveDefinition", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(definitions.create(actor, payload))))
      .handle("getWaveDefinition", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => definitions.get(actor, path.id)))
      .handle("updateWaveDefinition", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => definitions.update(actor, path.id, payload)))
      .handle("deleteWaveDefinition", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => definitions.remove(actor, path.id)))
  }))
