import { HttpApiBuilder } from "@effect/platform"
import { listPickMethods, SkuGroups, Skus } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const SkusHandlers = HttpApiBuilder.group(WarehouseApi, "skus", (handlers) =>
  Effect.gen(function*() {
    const skus = yield* Skus
    return handlers
      .handle("listSkus", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => skus.list(actor, urlParams)))
      .handle("createSku", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => skus.create(actor, payload)))
      .handle("getSku", ({ path }) => Effect.flatMap(CurrentActor, (actor) => skus.get(actor, path.id)))
      .handle("updateSku", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => skus.upsert(actor, path.id, payload)))
  }))

export const SkuGroupsHandlers = HttpApiBuilder.group(WarehouseApi, "skugroups", (handlers) =>
  Effect.gen(function*() {
    const groups = yield* SkuGroups
    return handlers
      .handle("listSkuGroups", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => groups.list(actor, urlParams)))
      .handle("createSkuGroup", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(groups.create(actor, payload))))
      .handle("getSkuGroup", ({ path }) => Effect.flatMap(CurrentActor, (actor) => groups.get(actor, path.id)))
      .handle("updateSkuGroup", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => groups.update(actor, path.id, payload)))
      .handle("deleteSkuGroup", ({ path }) => Effect.flatMap(CurrentActor, (actor) => groups.remove(actor, path.id)))
  }))

export const PickMethodsHandlers = HttpApiBuilder.group(WarehouseApi, "pickmethods", (handlers) =>
  Effect.succeed(handlers.handle("listPickMethods", ({ urlParams }) => Effect.succeed(listPickMethods(urlParams)))))
