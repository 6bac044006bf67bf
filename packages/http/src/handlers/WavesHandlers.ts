import { HttpApiBuilder } from "@effect/platform"
import { Waves, windowOf } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const WavesHandlers = HttpApiBuilder.group(WarehouseApi, "waves", (handlers) =>
  Effect.gen(function*() {
    const waves = yield* Waves
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => waves.create(actor, payload.wavedef_id)))
      .handle("start", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => waves.start(actor, payload.wave_id)))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(waves.list(actor), (items) => windowOf(items, urlParams))))
      .handle("get", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.get(actor, path.id)))
      .handle("remove", ({ path }) => Effect.flatMap(CurrentActor, (actor) => waves.remove(actor, path.id)))
      .handle("orders", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(waves.orders(actor, path.id), (items) => windowOf(items, urlParams))))
      .handle("claimsets", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(waves.claimsets(actor, path.id), (items) => windowOf(items, urlParams))))
      .handle("claims", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(waves.claims(actor, path.id), (items) => windowOf(items, urlParams))))
      .handle("tasks", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(waves.tasks(actor, path.id), (items) => windowOf(items, urlParams))))
  }))
