/**
 * The failures of webhooks, with their documented (Dutch) message.
 */
import { Schema } from "effect"

/** 404: no webhook with this id in the caller's scope; the documented message names none. */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return "Webhook niet gevonden"
  }
}
