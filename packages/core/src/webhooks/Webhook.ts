/**
 * A webhook (§2.10, DECISIONS §8) as the API shows it, as POST and PUT write it and as the store
 * keeps it, and a line of its delivery log.
 */
import { Schema } from "effect"
import { type EventType, EventTypes } from "../shared/Events.js"
import type { ClientId, SiteId } from "../shared/Ids.js"
import { StoredText } from "../shared/Text.js"

/** A webhook as the API shows it; `client_id` (extension) is set for a client's webhook. */
export const Webhook = Schema.Struct({
  id: Schema.Number,
  site_id: Schema.String,
  client_id: Schema.NullOr(Schema.String),
  event_type: Schema.String,
  url: Schema.String,
  secret: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  created_at: Schema.String
})
export type Webhook = typeof Webhook.Type

const isEventType = (s: string): s is EventType => (EventTypes as ReadonlyArray<string>).includes(s)

/** One of `EventTypes`; any other value is refused naming the valid ones. */
export const EventTypeInput = Schema.String.pipe(
  Schema.filter(isEventType, { message: () => `must be one of ${EventTypes.join(", ")}` })
)

const isHttpUrl = (s: string) => {
  if (!URL.canParse(s)) return false
  const url = new URL(s)
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
}

/** An absolute http(s) URL. */
export const WebhookUrl = Schema.String.pipe(
  Schema.filter((s) => s.length <= 2048, { message: () => "must be at most 2048 characters" }),
  Schema.filter(isHttpUrl, { message: () => "must be an absolute http(s) URL" })
)

const Secret = StoredText.pipe(
  Schema.filter((s) => s.length <= 1024, { message: () => "must be at most 1024 characters" })
)

/**
 * The body of POST and PUT. A PUT replaces every field as a POST sets it: no `secret` (or `null`
 * or `""`) means none, no `enabled` means true.
 */
export const WebhookInput = Schema.Struct({
  event_type: EventTypeInput,
  url: WebhookUrl,
  secret: Schema.optionalWith(Schema.NullOr(Secret), { default: () => null }),
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true })
})
export type WebhookInput = typeof WebhookInput.Type

/** A webhook as the store keeps it. */
export interface StoredWebhook {
  readonly id: number
  readonly site_id: SiteId
  readonly client_id: ClientId | null
  readonly event_type: string
  readonly url: string
  readonly secret: string | null
  readonly enabled: boolean
  /** UTC ISO text. */
  readonly created_at: string
}

/** One line of a webhook's delivery log (extension, DECISIONS §8). */
export const Delivery = Schema.Struct({
  event_id: Schema.Number,
  event_type: Schema.String,
  status: Schema.Literal("pending", "delivered", "failed"),
  attempts: Schema.Number,
  last_status_code: Schema.NullOr(Schema.Number),
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Schema.String),
  delivered_at: Schema.NullOr(Schema.String),
  created_at: Schema.String
})
export type Delivery = typeof Delivery.Type

/** A delivery as the store keeps it: date-times as UTC ISO text. */
export type StoredDelivery = Delivery
