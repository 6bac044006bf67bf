/**
 * Movement's side of `ReceiptPutaway`: received stock is planned and tasked as `POST /putaway-tasks`
 * plans it (`Tasking.planPutaways`), all of it in one run. Stock at a receiving location that lets
 * no stock out stays there untasked, reported as unplaced like stock that finds no room.
 */
import { Effect, Layer, Option } from "effect"
import { letsStockOut } from "../locations/Location.js"
import { ReceiptPutaway } from "../receiving/ReceiptPutaway.js"
import type { Content } from "../stock/InventoryRepository.js"
import { atReceiving, makeTasking } from "./Tasking.js"

export const ReceiptPutawayLive = Layer.effect(
  ReceiptPutaway,
  Effect.map(makeTasking, (tasking) => ({
    putAway: Effect.fnUntraced(function*(actor, contents, managed, receivingLocation) {
      const byId = new Map(managed.map((l) => [l.loc_id, l]))
      const locationOf = (c: Content) => Option.fromNullable(byId.get(c.loc_id))
      const atReceivingLocation = contents.filter((c) => atReceiving(c.loc_id, locationOf(c), receivingLocation))
      const movable = atReceivingLocation.filter((c) =>
        Option.match(locationOf(c), { onNone: () => true, onSome: (l) => letsStockOut(l.status) })
      )
      const run = yield* tasking.planPutaways(actor.scope.site_id, movable)
      const tasks = yield* tasking.open(actor, run.tasks)
      const moved = new Set(movable)
      const held = atReceivingLocation.filter((c) => !moved.has(c)).map((c) => ({
        content_id: c.content_id,
        qty: c.qty
      }))
      return {
        tasks: tasks.map((task) => task.id),
        unplaced: [...run.unplaced, ...held].sort((a, b) => a.content_id - b.content_id)
      }
    })
  }))
)
