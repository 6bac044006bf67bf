import { Webhooks } from "@wms/core"
import type { ListWindow, WebhookInput } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, windowed } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { WebhooksApi } from "./WebhooksApi.js"

export const WebhooksTable = Effect.map(Webhooks, (webhooks) => ({
  listWebhooks: (actor, { urlParams }) => webhooks.listWebhooks(actor, urlParams),
  createWebhook: (actor, { payload }) => webhooks.createWebhook(actor, payload),
  getWebhook: (actor, { path }) => webhooks.getWebhook(actor, path.id),
  updateWebhook: (actor, { path, payload }) => webhooks.updateWebhook(actor, path.id, payload),
  deleteWebhook: (actor, { path }) => webhooks.deleteWebhook(actor, path.id),
  listWebhookDeliveries: (actor, { path, urlParams }) => webhooks.listWebhookDeliveries(actor, path.id, urlParams)
} satisfies Table<typeof WebhooksApi>))

/** The facade's methods of `webhooks`: how each one's arguments make its endpoint's input. */
export const WebhooksMethods = {
  listWebhooks: windowed,
  getWebhook: byNumber,
  createWebhook: (payload: Body<typeof WebhookInput>) => ({ payload }),
  updateWebhook: (id: number, payload: Body<typeof WebhookInput>) => ({ ...byNumber(id), payload }),
  deleteWebhook: byNumber,
  /** The webhook's delivery log, newest first. */
  listWebhookDeliveries: (id: number, window?: ListWindow) => ({ ...byNumber(id), ...windowed(window) })
} satisfies Methods<typeof WebhooksApi>

export const WebhooksHandlers = { table: WebhooksTable, methods: WebhooksMethods }
