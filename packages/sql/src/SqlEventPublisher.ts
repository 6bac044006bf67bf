/**
 * The event outbox on @effect/sql: an event is a row written in the transaction of its change.
 */
import { SqlClient } from "@effect/sql"
import { EventPublisher } from "@wms/core"
import { Clock, Effect, Layer } from "effect"
import { type BulkInsert, makeBulkInsert } from "./Batches.js"
import { Prepared } from "./Prepared.js"
import { query } from "./Query.js"

const events: BulkInsert = { table: "events", columns: ["event_type", "site_id", "client_id", "created_at", "data"] }

export const layer = Layer.effect(
  EventPublisher,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const bulkInsert = makeBulkInsert(sql, yield* Prepared)
    return EventPublisher.of({
      publish: (event) =>
        query(Effect.gen(function*() {
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
        })),
      // Not a generator: a wave start publishes a batch of events at a time, and a generator run per
      // batch made V8 keep each batch past the next minor collections, into the old generation.
      publishAll: (all) =>
        query(Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const createdAt = new Date(now).toISOString()
          return bulkInsert(events, all, (params, event) =>
            params.push(event.event_type, event.site_id, event.client_id, createdAt, JSON.stringify(event.data)))
        }))
    })
  })
)
