/**
 * Webhooks (§2.10, §4.8, §6 of the API document; DECISIONS §8) and their delivery log (extension).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Delivery, ListWindow, RecordIdFromPath, Webhook, WebhookInput, WebhookNotFound } from "@wms/core"
import { Schema } from "effect"
import { generated } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const IdPath = Schema.Struct({ id: RecordIdFromPath })

const notFound = "Missing in the scope: 404 `Webhook niet gevonden`; a non-integer id: 400."

const fields = "`event_type` (required) is one of `order_shipped`, `order_allocated`, `wave_started`, " +
  "`preadvice_received`, `count_pending_approval`, `count_completed`, `order_backordered`, `hold_created`, `hold_released`, `transfer_shipped`, `transfer_received`, `return_received` (another value: 400 `Invalid field event_type: must be one of …`); `url` (required) is an " +
  "absolute http(s) URL (otherwise 400 `Invalid field url: must be an absolute http(s) URL`); `secret` is optional " +
  "(absent, null or empty: none); `enabled` defaults to true."

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("listWebhooks", "/webhooks")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(Webhook))
      .annotate(
        OpenApi.Description,
        "The webhooks of the scope, by id, with their secrets; optional `limit` and `offset`. A site scope also " +
          "lists the webhooks of its clients."
      )
  )
  .add(
    HttpApiEndpoint.post("createWebhook", "/webhooks")
      .setPayload(WebhookInput)
      .annotate(ReadOnlyFields, Webhook)
      .annotateContext(generated("/webhooks"))
      .annotate(
        OpenApi.Description,
        `Registers a webhook of the scope: 204. It receives the events committed from now on. ${fields}`
      )
  )
  .add(
    HttpApiEndpoint.get("getWebhook", "/webhooks/:id")
      .setPath(IdPath)
      .addSuccess(Webhook)
      .addError(onTheWire(WebhookNotFound))
      .annotate(
        OpenApi.Description,
        `One webhook; \`secret\` is null when it has none, \`created_at\` is YYYY-MM-DD HH:mm:ss. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.put("updateWebhook", "/webhooks/:id")
      .setPath(IdPath)
      .setPayload(WebhookInput)
      .annotate(ReadOnlyFields, Webhook)
      .addError(onTheWire(WebhookNotFound))
      .annotate(
        OpenApi.Description,
        `Replaces every field as on create: 204. ${fields} Deliveries still pending go to the new url; while ` +
          `disabled a webhook gets nothing, and the events raised meanwhile are skipped, not sent later. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteWebhook", "/webhooks/:id")
      .setPath(IdPath)
      .addError(onTheWire(WebhookNotFound))
      .annotate(OpenApi.Description, `Removes the webhook and its delivery log: 204. ${notFound}`)
  )
  .add(
    HttpApiEndpoint.get("listWebhookDeliveries", "/webhooks/:id/deliveries")
      .setPath(IdPath)
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(Delivery))
      .addError(onTheWire(WebhookNotFound))
      .annotate(
        OpenApi.Description,
        "Extension: the delivery log of the webhook, newest event first; optional `limit` and `offset`. Per event: " +
          "`event_id`, `event_type`, `status` (`pending`, `delivered` or `failed`), `attempts` (attempts started), " +
          "`last_status_code` and `last_error` of the last attempt, `next_attempt_at` (while pending), " +
          "`delivered_at`, and `created_at` (when it became due); date-times YYYY-MM-DD HH:mm:ss in the service's " +
          `time zone, null when absent. ${notFound}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Webhooks")
  .annotate(
    OpenApi.Description,
    "A webhook belongs to the scope that created it: created with a site id it receives every event of the site; " +
      "created with a client id only that client's events (`client_id` shows which). For every event a delivery is " +
      "`POST <url>` with the JSON `{id, event_type, site_id, client_id, created_at, data}`: `id` the event id " +
      "(a number), `created_at` YYYY-MM-DD HH:mm:ss in the service's time zone, `data` for order events the order " +
      "as `GET /orders/:id` shows it, for `wave_started` the wave as `GET /waves/:id`, for `preadvice_received` the " +
      "pre-advice as `GET /preadvices/:id`, for `count_pending_approval` and `count_completed` the count as " +
      "`GET /counts/:id` shows it to an admin (counts are site events: `client_id` null, delivered to the " +
      "site's webhooks only). Headers: `Content-Type: application/json`, `webhook-id` (the event id, " +
      "the same on every retry), `webhook-timestamp` (unix seconds of the attempt) and, when the webhook has a " +
      "secret, `X-Webhook-Secret: <secret>` and `webhook-signature: v1,<base64 HMAC-SHA256 of " +
      "\"<webhook-id>.<webhook-timestamp>.<body>\" keyed with the secret's UTF-8 bytes>` (Standard Webhooks). " +
      "Delivery is at least once, after commit, and in order per webhook: its next event waits until the one " +
      "before is delivered or has failed for good. A 2xx answer delivers; any other answer or no answer within " +
      "10 s is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h and then every 2 h, until 24 hours after the " +
      "first attempt; then the delivery is marked failed and the next event goes."
  )
{}
