/**
 * The event outbox on @effect/sql: an event is a row written in the transaction of its change.
 */
import { SqlClient } from "@effect/sql"
import { EventPublisher } from "@wms/core"
import { Clock, Effect, Layer } from "effect"

export const layer = Layer.effect(
  EventPublisher,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return EventPublisher.of({
      publish: (event) =>
        Effect.gen(function*() {
          const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
          yield* sql`INSERT INTO events ${
            sql.insert({
              event_type: event.event_type,
              site_id: event.site_id,
              client_id: event.client_id,
              created_at: createdAt,
              data: JSON.stringify(event.data)
            })
          }`
        }).pipe(Effect.orDie, Effect.withSpan("EventPublisher.publish"))
    })
  })
)
