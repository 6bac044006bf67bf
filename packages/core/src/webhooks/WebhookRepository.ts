/**
 * The store port for webhooks and their deliveries: management, the fan-out of outbox events to
 * delivery rows, and the leases that let several processes share the delivery work.
 */
import { Context, type Effect, type Option } from "effect"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { StoredDelivery, StoredWebhook, WebhookInput } from "./Webhook.js"
import type { DeliveryStatus, StoredEvent } from "./WebhookDelivery.js"

/** A delivery taken for one attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  readonly id: number
  /** The lease: the attempt's result is recorded only while the delivery still carries it. */
  readonly lockedUntil: string
  /** Attempts started so far, this one included. */
  readonly attempts: number
  /** UTC ISO text of when the delivery became due. */
  readonly createdAt: string
  readonly url: string
  readonly secret: string | null
  readonly event: StoredEvent
}

/** The outcome of an attempt, as stored. */
export interface AttemptRecord {
  readonly status: DeliveryStatus
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  /** UTC ISO text, or null once delivered or failed. */
  readonly nextAttemptAt: string | null
  readonly deliveredAt: string | null
}

export class WebhookRepository extends Context.Tag("@wms/core/WebhookRepository")<WebhookRepository, {
  /** The webhooks a scope sees, by id. */
  readonly list: (scope: Scope, window: ListWindow) => Effect.Effect<ReadonlyArray<StoredWebhook>>
  /** Looks a webhook up by id, on any site. */
  readonly find: (id: number) => Effect.Effect<Option.Option<StoredWebhook>>
  /** Inserts a webhook that receives the events raised from now on; returns its id. */
  readonly insert: (owner: Owner, input: WebhookInput, createdAt: string) => Effect.Effect<number>
  /** Replaces the writable fields; false when the webhook is gone. */
  readonly update: (id: number, input: WebhookInput) => Effect.Effect<boolean>
  /** Removes the webhook and its delivery log. */
  readonly remove: (id: number) => Effect.Effect<void>
  /** The delivery log of a webhook, newest event first. */
  readonly deliveries: (webhookId: number, window: ListWindow) => Effect.Effect<ReadonlyArray<StoredDelivery>>
  /**
   * The highest event id up to which every event is committed (no transaction still running can
   * add a lower one), or `known` when nothing newer is settled. Cheap when nothing is new.
   */
  readonly settledEventId: (known: number) => Effect.Effect<number>
  /**
   * Creates the pending deliveries of the events up to `upTo` for every enabled webhook they
   * match, and moves every webhook past them (a disabled webhook skips them). Idempotent; run
   * it in one transaction.
   */
  readonly fanOut: (upTo: number, now: string) => Effect.Effect<void>
  /** The events with `after < id <= upTo`, by id, at most `limit`. */
  readonly eventsBetween: (after: number, upTo: number, limit: number) => Effect.Effect<ReadonlyArray<StoredEvent>>
  /**
   * Leases up to `limit` due deliveries, each the oldest pending one of an enabled webhook and
   * not leased by a live attempt, and counts the attempt. A conditional update: two processes
   * never hold the same delivery at once.
   */
  readonly claim: (now: string, lockedUntil: string, limit: number) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
  /** Records an attempt and frees the delivery; false (and no change) when the lease was lost. */
  readonly complete: (id: number, lockedUntil: string, record: AttemptRecord) => Effect.Effect<boolean>
  /** Frees a delivery whose attempt was interrupted, so that another may take it at once. */
  readonly release: (id: number, lockedUntil: string) => Effect.Effect<void>
}>() {}
