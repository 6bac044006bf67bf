/**
 * Warehouse events and the port that raises them. A store keeps each event in the same
 * transaction as the change that raised it (an outbox), so an event exists exactly when its
 * change committed; delivery happens after commit.
 */
import { Context, type Effect } from "effect"

/** Every event type, in the order the API lists them. */
export const EventTypes = [
  "order_shipped",
  "order_allocated",
  "wave_started",
  "preadvice_received",
  "count_pending_approval",
  "count_completed",
  "order_backordered",
  "hold_created",
  "hold_released",
  "transfer_shipped",
  "transfer_received",
  "return_received"
] as const
export type EventType = typeof EventTypes[number]

/** An event as a change raises it. */
export interface WarehouseEvent {
  readonly event_type: EventType
  readonly site_id: string
  readonly client_id: string | null
  /** The record the event is about: for order events the order as `GET /orders/:id` shows it. */
  readonly data: unknown
}

export class EventPublisher extends Context.Tag("@wms/core/EventPublisher")<EventPublisher, {
  /** Records the event in the current transaction. */
  readonly publish: (event: WarehouseEvent) => Effect.Effect<void>
  /** Records the events in the current transaction, in their order, in a few statements. */
  readonly publishAll: (events: ReadonlyArray<WarehouseEvent>) => Effect.Effect<void>
}>() {}
