import { HttpApiBuilder } from "@effect/platform"
import { Webhooks } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const WebhooksHandlers = HttpApiBuilder.group(WarehouseApi, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    return handlers
      .handle("listWebhooks", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => webhooks.list(actor, urlParams)))
      .handle("createWebhook", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(webhooks.create(actor, payload))))
      .handle("getWebhook", ({ path }) => Effect.flatMap(CurrentActor, (actor) => webhooks.get(actor, path.id)))
      .handle("updateWebhook", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => webhooks.update(actor, path.id, payload)))
      .handle("deleteWebhook", ({ path }) => Effect.flatMap(CurrentActor, (actor) => webhooks.remove(actor, path.id)))
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => webhooks.deliveries(actor, path.id, urlParams)))
  }))
