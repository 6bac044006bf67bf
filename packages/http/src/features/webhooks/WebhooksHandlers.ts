import { Webhooks } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { WebhooksApi } from "./WebhooksApi.js"

export const WebhooksTable = Effect.map(Webhooks, (webhooks) => ({
  listWebhooks: (actor, { urlParams }) => webhooks.list(actor, urlParams),
  createWebhook: (actor, { payload }) => webhooks.create(actor, payload),
  getWebhook: (actor, { path }) => webhooks.get(actor, path.id),
  updateWebhook: (actor, { path, payload }) => webhooks.update(actor, path.id, payload),
  deleteWebhook: (actor, { path }) => webhooks.remove(actor, path.id),
  listWebhookDeliveries: (actor, { path, urlParams }) => webhooks.deliveries(actor, path.id, urlParams)
} satisfies Table<typeof WebhooksApi>))
