import { Webhooks } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { WebhooksApi } from "./WebhooksApi.js"

export const WebhooksTable = Effect.map(Webhooks, (webhooks) => ({
  listWebhooks: (actor, { urlParams }) => webhooks.listWebhooks(actor, urlParams),
  createWebhook: (actor, { payload }) => webhooks.createWebhook(actor, payload),
  getWebhook: (actor, { path }) => webhooks.getWebhook(actor, path.id),
  updateWebhook: (actor, { path, payload }) => webhooks.updateWebhook(actor, path.id, payload),
  deleteWebhook: (actor, { path }) => webhooks.deleteWebhook(actor, path.id),
  listWebhookDeliveries: (actor, { path, urlParams }) => webhooks.listWebhookDeliveries(actor, path.id, urlParams)
} satisfies Table<typeof WebhooksApi>))
