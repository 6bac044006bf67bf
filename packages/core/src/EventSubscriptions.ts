/**
 * In-process subscriptions to the warehouse events, for applications that embed the engine: the
 * same events the webhooks get, without HTTP. The webhook worker feeds them after commit from the
 * outbox, in event id order; each process feeds its own subscribers with every event committed
 * while they are subscribed (nothing is replayed after a restart).
 */
import { Effect, type Scope } from "effect"
import type { EventType } from "./Events.js"
import type { EventPayload } from "./WebhookDelivery.js"

/** A subscriber; a failure or defect is logged and does not stop the others or later events. */
export type EventHandler = (event: EventPayload) => Effect.Effect<void, unknown>

interface Subscription {
  readonly eventType: EventType | "*"
  readonly handler: EventHandler
}

export class EventSubscriptions extends Effect.Service<EventSubscriptions>()("@wms/core/EventSubscriptions", {
  sync: () => {
    const subscriptions = new Set<Subscription>()

    /** Calls `handler` for every event of `eventType` (or of any type, `"*"`) until the scope closes. */
    const subscribe = (eventType: EventType | "*", handler: EventHandler): Effect.Effect<void, never, Scope.Scope> =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const subscription: Subscription = { eventType, handler }
          subscriptions.add(subscription)
          return subscription
        }),
        (subscription) => Effect.sync(() => subscriptions.delete(subscription))
      )

    /** Whether anyone listens; the worker reads no events for subscribers when no one does. */
    const active = Effect.sync(() => subscriptions.size > 0)

    /** Hands an event to every matching subscriber, one after the other. */
    const notify = (event: EventPayload) =>
      Effect.forEach(
        [...subscriptions].filter((s) => s.eventType === "*" || s.eventType === event.event_type),
        (subscription) =>
          Effect.suspend(() => subscription.handler(event)).pipe(
            Effect.catchAllCause((cause) =>
              Effect.logWarning(`An event subscriber failed on event ${event.id}`, cause)
            )
          ),
        { discard: true }
      )

    return { subscribe, active, notify } as const
  }
}) {}
