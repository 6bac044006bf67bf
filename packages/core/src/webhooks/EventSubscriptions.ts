/**
 * In-process subscriptions to the warehouse events, for applications that embed the engine: the
 * same events the webhooks get, without HTTP. The webhook worker feeds them after commit from the
 * outbox, in event id order. A subscriber gets every event committed after `subscribe` returns
 * (and possibly a few committed just before); nothing is replayed after a restart.
 */
import { Effect, Option, Schedule, type Scope } from "effect"
import type { EventType } from "../shared/Events.js"
import type { EventPayload } from "./WebhookDelivery.js"
import { WebhookRepository } from "./WebhookRepository.js"

/** A subscriber; a failure or defect is logged and does not stop the others or later events. */
export type EventHandler = (event: EventPayload) => Effect.Effect<void, unknown>

interface Subscription {
  readonly eventType: EventType | "*"
  readonly handler: EventHandler
  /** The id of the last event this subscriber has been handed, or stood at when it subscribed. */
  cursor: number
}

export class EventSubscriptions extends Effect.Service<EventSubscriptions>()("@wms/core/EventSubscriptions", {
  effect: Effect.gen(function*() {
    const repository = yield* WebhookRepository
    const subscriptions = new Set<Subscription>()

    // Every event id up to the settled one is committed, so each later event commits after this
    // read. Until the writers in flight at the first look have ended, none is settled (-1): look again.
    const settledEventId = repository.settledEventId(-1).pipe(
      Effect.repeat(Schedule.recurUntil((id: number) => id >= 0).pipe(Schedule.addDelay(() => "20 millis")))
    )

    /** Calls `handler` for every event of `eventType` (or of any type, `"*"`) until the scope closes. */
    const subscribe = (eventType: EventType | "*", handler: EventHandler): Effect.Effect<void, never, Scope.Scope> =>
      Effect.acquireRelease(
        Effect.map(settledEventId, (cursor) => {
          const subscription: Subscription = { eventType, handler, cursor }
          subscriptions.add(subscription)
          return subscription
        }),
        (subscription) => Effect.sync(() => subscriptions.delete(subscription))
      )

    /** The lowest cursor of the subscribers, none when no one listens: the worker feeds events after it. */
    const cursor = Effect.sync(() =>
      subscriptions.size === 0
        ? Option.none<number>()
        : Option.some(Math.min(...Array.from(subscriptions, (s) => s.cursor)))
    )

    /** Hands an event to every matching subscriber that has not had it yet, one after the other. */
    const notify = (event: EventPayload) =>
      Effect.forEach(
        [...subscriptions].filter((s) => s.cursor < event.id),
        (subscription) => {
          subscription.cursor = event.id
          if (subscription.eventType !== "*" && subscription.eventType !== event.event_type) return Effect.void
          return Effect.suspend(() => subscription.handler(event)).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning(`An event subscriber failed on event ${event.id}`, cause))
          )
        },
        { discard: true }
      )

    return { subscribe, cursor, notify } as const
  })
}) {}
