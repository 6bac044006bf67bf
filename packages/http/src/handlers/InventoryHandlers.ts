import { HttpApiBuilder } from "@effect/platform"
import { Inventory, windowOf } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const InventoryHandlers = HttpApiBuilder.group(WarehouseApi, "inventory", (handlers) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return handlers
      .handle("overview", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(inventory.overview(actor), (items) => windowOf(items, urlParams))))
      .handle("content", ({ path }) => Effect.flatMap(CurrentActor, (actor) => inventory.content(actor, path.id)))
      .handle("transactions", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(inventory.transactions(actor), (items) => windowOf(items, urlParams))))
      .handle("transaction", ({ path }) => Effect.flatMap(CurrentActor, (actor) => inventory.transaction(actor, path.id)))
      .handle("lostAndFound", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(inventory.lostAndFound(actor), (items) => windowOf(items, urlParams))))
      .handle("lostAndFoundItem", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => inventory.lostAndFoundItem(actor, path.id)))
      .handle("adjust", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => inventory.adjust(actor, payload)))
  }))
