/**
 * The port through which deleting an order gives back the stock that waves allocated to it.
 * Orders declare it and waves implement it, so that the orders know nothing of waves.
 */
import { Context, type Effect } from "effect"
import type { OrderPickingStarted } from "./Errors.js"

export class OrderAllocations extends Context.Tag("@wms/core/OrderAllocations")<OrderAllocations, {
  /**
   * Gives back the allocation of an order that is about to be deleted, inside the caller's
   * transaction; a 409 once picking of it has started.
   */
  readonly release: (orderId: string, orderRef: number) => Effect.Effect<void, OrderPickingStarted>
}>() {}
