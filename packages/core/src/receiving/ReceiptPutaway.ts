/**
 * The port through which a receipt with putaway gets its putaway tasks, in the receipt's
 * transaction. Receiving declares it and movement implements it (`movement/ReceiptPutawayLive.ts`),
 * so that receiving knows nothing of movement tasks, which sit above it.
 */
import { Context, type Effect, Schema } from "effect"
import type { LocationWithOccupancy } from "../locations/Location.js"
import type { Actor } from "../shared/Tenancy.js"
import type { Content } from "../stock/InventoryRepository.js"

/** What putaway made of received stock: the tasks, and what found no room (`POST /preadvices/:id/receive`). */
export const PutawayReport = Schema.Struct({
  tasks: Schema.Array(Schema.Number),
  unplaced: Schema.Array(Schema.Struct({ content_id: Schema.Number, qty: Schema.Number }))
})
export type PutawayReport = typeof PutawayReport.Type

export class ReceiptPutaway extends Context.Tag("@wms/core/ReceiptPutaway")<ReceiptPutaway, {
  /**
   * Makes the putaway tasks of the received contents that are at a receiving location: the
   * managed one of those `managed` (locked by the caller), or else the site's `receivingLocation`.
   */
  readonly putAway: (
    actor: Actor,
    contents: ReadonlyArray<Content>,
    managed: ReadonlyArray<LocationWithOccupancy>,
    receivingLocation: string
  ) => Effect.Effect<PutawayReport>
}>() {}
