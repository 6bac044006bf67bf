/**
 * The pure rules of webhook delivery (DECISIONS §8): the retry schedule, what a failed attempt
 * leads to, the payload and the Standard Webhooks signing input, and which delivery goes next.
 * The worker and the store follow these; the tests check them with a simulated clock.
 */
import { Context } from "effect"
import type { EventType } from "../shared/Events.js"
import { formatDateTime } from "../shared/Formats.js"

/** How deliveries are timed. The defaults are the production values; tests shorten them. */
export interface DeliveryPolicy {
  /** How long one attempt may take before it counts as failed (10 s). */
  readonly timeoutMillis: number
  /** The delay after the 1st, 2nd, … failed attempt; the last one repeats. */
  readonly retryDelaysMillis: ReadonlyArray<number>
  /** A delivery is retried until this long after it became due, then marked failed (24 h). */
  readonly retryForMillis: number
}

const second = 1000
const minute = 60 * second
const hour = 60 * minute

/** The production schedule: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h, for 24 hours. */
export const defaultDeliveryPolicy: DeliveryPolicy = {
  timeoutMillis: 10 * second,
  retryDelaysMillis: [5 * second, 30 * second, 2 * minute, 10 * minute, 30 * minute, hour, 2 * hour],
  retryForMillis: 24 * hour
}

/** The delivery policy in use; embedders and tests may provide another. */
export class WebhookDeliveryPolicy extends Context.Reference<WebhookDeliveryPolicy>()(
  "@wms/core/WebhookDeliveryPolicy",
  { defaultValue: (): DeliveryPolicy => defaultDeliveryPolicy }
) {}

/** The delay before the next attempt once `attempts` attempts have failed (attempts ≥ 1). */
export const retryDelay = (policy: DeliveryPolicy, attempts: number): number => {
  const delays = policy.retryDelaysMillis
  return delays[Math.min(Math.max(attempts, 1), delays.length) - 1]
}

/** Where a delivery stands. */
export type DeliveryStatus = "pending" | "delivered" | "failed"

/** What a finished attempt leaves on the delivery. */
export interface AttemptResult {
  readonly status: DeliveryStatus
  /** Epoch millis of the next attempt; null once delivered or failed. */
  readonly nextAttemptAt: number | null
  /** Epoch millis of the successful attempt; null otherwise. */
  readonly deliveredAt: number | null
}

/**
 * The state after an attempt that ended at `now`: a 2xx answer delivers; any other outcome is
 * retried after the schedule's delay, unless the delivery has been due for `retryForMillis`
 * already, which fails it for good.
 */
export const afterAttempt = (
  policy: DeliveryPolicy,
  delivery: { readonly attempts: number; readonly dueSince: number },
  succeeded: boolean,
  now: number
): AttemptResult => {
  if (succeeded) return { status: "delivered", nextAttemptAt: null, deliveredAt: now }
  if (now - delivery.dueSince >= policy.retryForMillis) {
    return { status: "failed", nextAttemptAt: null, deliveredAt: null }
  }
  return { status: "pending", nextAttemptAt: now + retryDelay(policy, delivery.attempts), deliveredAt: null }
}

/** Whether an HTTP status answers a delivery successfully. */
export const isSuccessStatus = (status: number): boolean => status >= 200 && status < 300

/** An event as the outbox keeps it. */
export interface StoredEvent {
  readonly id: number
  readonly event_type: EventType
  readonly site_id: string
  readonly client_id: string | null
  /** UTC ISO text. */
  readonly created_at: string
  /** The event's record as JSON text. */
  readonly data: string
}

/** The body of a delivery and of an in-process notification. */
export interface EventPayload {
  readonly id: number
  readonly event_type: EventType
  readonly site_id: string
  readonly client_id: string | null
  /** `YYYY-MM-DD HH:mm:ss` in the service's time zone. */
  readonly created_at: string
  readonly data: unknown
}

/** The payload of a stored event, its date-time shown in `timeZone`. */
export const eventPayload = (event: StoredEvent, timeZone: string): EventPayload => ({
  id: event.id,
  event_type: event.event_type,
  site_id: event.site_id,
  client_id: event.client_id,
  created_at: formatDateTime(event.created_at, timeZone),
  data: JSON.parse(event.data)
})

/** The Standard Webhooks `webhook-id` of an event: its id, the same on every attempt. */
export const webhookId = (eventId: number): string => String(eventId)

/** What `webhook-signature` signs: `<webhook-id>.<webhook-timestamp>.<body>`. */
export const signingInput = (id: string, timestampSeconds: number, body: string): string =>
  `${id}.${timestampSeconds}.${body}`

/** A delivery as the scheduler sees it. */
export interface ScheduledDelivery {
  readonly webhookId: number
  readonly eventId: number
  readonly status: DeliveryStatus
  readonly nextAttemptAt: number
  /** Epoch millis until which an attempt in flight holds it; null when free. */
  readonly lockedUntil: number | null
}

/**
 * The deliveries that may be attempted at `now`: per webhook only its oldest pending event (so a
 * webhook's next event waits until the one before is delivered or failed), when it is due and no
 * live lease holds it. The store's claim query is this rule in SQL.
 */
export const dueDeliveries = <D extends ScheduledDelivery>(
  deliveries: ReadonlyArray<D>,
  now: number
): ReadonlyArray<D> => {
  const heads = new Map<number, D>()
  for (const delivery of deliveries) {
    if (delivery.status !== "pending") continue
    const head = heads.get(delivery.webhookId)
    if (head === undefined || delivery.eventId < head.eventId) heads.set(delivery.webhookId, delivery)
  }
  return [...heads.values()].filter((d) => d.nextAttemptAt <= now && (d.lockedUntil === null || d.lockedUntil <= now))
}
