import { HttpApiBuilder } from "@effect/platform"
import { Inventory } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const InventoryHandlers = HttpApiBuilder.group(WarehouseApi, "inventory", (handlers) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return handlers
      .handle("overview", () => Effect.flatMap(CurrentActor, inventory.overview))
      .handle("content", ({ path }) => Effect.flatMap(CurrentActor, (actor) => inventory.content(actor, path.id)))
      .handle("transactions", () => Effect.flatMap(CurrentActor, inventory.transactions))
      .handle("transaction", ({ path }) => Effect.flatMap(CurrentActor, (actor) => inventory.transaction(actor, path.id)))
      .handle("lostAndFound", () => Effect.flatMap(CurrentActor, inventory.lostAndFound))
      .handle("lostAndFoundItem", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => inventory.lostAndFoundItem(actor, path.id)))
      .handle("adjust", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => inventory.adjust(actor, payload)))
  }))
