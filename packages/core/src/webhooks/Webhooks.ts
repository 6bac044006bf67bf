/**
 * Webhooks (§2.10, §4.8, §6, DECISIONS §8). A webhook belongs to the scope that created it: one
 * created with a site id receives the events of the whole site, one created with a client id only
 * that client's events, and only that scope (or its site) sees it.
 */
import { Effect, Option, Schema } from "effect"
import { NotFound } from "../shared/Errors.js"
import { type EventType, EventTypes } from "../shared/Events.js"
import { formatDateTime, TimeZone } from "../shared/Formats.js"
import type { ClientId, SiteId } from "../shared/Ids.js"
import type { ListWindow } from "../masterdata/MasterData.js"
import { type Actor, canSee, ownerOf } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { WebhookRepository } from "./WebhookRepository.js"

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

const Secret = Schema.String.pipe(
  Schema.filter((s) => !s.includes("\u0000"), { message: () => "must not contain NUL characters" }),
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

const notFound = new NotFound({ message: "Webhook niet gevonden" })

export class Webhooks extends Effect.Service<Webhooks>()("@wms/core/Webhooks", {
  effect: Effect.gen(function*() {
    const repository = yield* WebhookRepository
    const { atomically } = yield* Transactor

    const show = (webhook: StoredWebhook, timeZone: string): Webhook => ({
      ...webhook,
      secret: webhook.secret === "" ? null : webhook.secret,
      created_at: formatDateTime(webhook.created_at, timeZone)
    })

    const visible = (actor: Actor, id: number) =>
      Effect.flatMap(repository.find(id), (found) =>
        Option.isSome(found) && canSee(actor.scope, found.value) ? Effect.succeed(found.value) : Effect.fail(notFound))

    const list = Effect.fnUntraced(function*(actor: Actor, window: ListWindow = {}) {
      const timeZone = yield* TimeZone
      const webhooks = yield* repository.list(actor.scope, window)
      return webhooks.map((webhook) => show(webhook, timeZone))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, id: number) {
      return show(yield* visible(actor, id), yield* TimeZone)
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: WebhookInput) {
      const createdAt = new Date(yield* Effect.clockWith((clock) => clock.currentTimeMillis)).toISOString()
      return yield* repository.insert(ownerOf(actor.scope), { ...input, secret: input.secret || null }, createdAt)
    }, atomically)

    const update = Effect.fnUntraced(function*(actor: Actor, id: number, input: WebhookInput) {
      yield* visible(actor, id)
      if (!(yield* repository.update(id, { ...input, secret: input.secret || null }))) return yield* notFound
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, id: number) {
      yield* visible(actor, id)
      yield* repository.remove(id)
    }, atomically)

    const deliveries = Effect.fnUntraced(function*(actor: Actor, id: number, window: ListWindow = {}) {
      yield* visible(actor, id)
      const timeZone = yield* TimeZone
      const show = (iso: string | null) => (iso === null ? null : formatDateTime(iso, timeZone))
      const log = yield* repository.deliveries(id, window)
      return log.map((delivery): Delivery => ({
        ...delivery,
        next_attempt_at: show(delivery.next_attempt_at),
        delivered_at: show(delivery.delivered_at),
        created_at: formatDateTime(delivery.created_at, timeZone)
      }))
    })

    return { list, get, create, update, remove, deliveries } as const
  })
}) {}
