import { HttpApiBuilder } from "@effect/platform"
import { Waves } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const WavesHandlers = HttpApiBuilder.group(WarehouseApi, "waves", (handlers) =>
  Effect.gen(function*() {
    const waves = yield* Waves
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => waves.create(actor, payload.wavedef_id)))
      .handle("start", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => waves.start(actor, payload.wave_id)))
      .handle("list", () => Effect.flatMap(CurrentActor, waves.list))
      .handle("get", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.get(actor, path.id)))
      .handle("remove", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.remove(actor, path.id)))
      .handle("orders", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.orders(actor, path.id)))
      .handle("claimsets", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.claimsets(actor, path.id)))
      .handle("claims", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.claims(actor, path.id)))
      .handle("tasks", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.tasks(actor, path.id)))
  }))
