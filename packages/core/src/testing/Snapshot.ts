/**
 * A site's state read through the services, as its API shows it: what the checkers run on.
 */
import { Effect } from "effect"
import { Counts } from "../counts/Counts.js"
import { Locations } from "../locations/Locations.js"
import { Skus } from "../masterdata/Skus.js"
import { MovementTasks } from "../movement/MovementTasks.js"
import { Orders } from "../orders/Orders.js"
import { PickFaces } from "../replenishment/PickFaces.js"
import type { Actor } from "../shared/Tenancy.js"
import { Inventory } from "../stock/Inventory.js"
import { Waves } from "../waves/Waves.js"
import type { CycleSnapshot } from "./Views.js"

/**
 * The stock, ledger, claims, movement tasks (every status), locations, SKU measures, pick-face
 * settings, counts and orders with their lines of a scope, as its API shows them. Capacity and occupancy are checked right
 * only on a site-wide actor's snapshot: a location counts every client's stock; and only a
 * site-wide actor sees counts (a client's has none), only an admin their figures on a blind one.
 */
export const snapshot = (actor: Actor) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    const waves = yield* Waves
    const movementTasks = yield* MovementTasks
    const locations = yield* Locations
    const skus = yield* Skus
    const pickFaces = yield* PickFaces
    const counts = yield* Counts
    const orders = yield* Orders
    const contents = yield* inventory.overview(actor)
    const transactions = yield* inventory.transactions(actor)
    const claims = yield* Effect.flatMap(
      waves.list(actor),
      Effect.forEach((wave) => Effect.orDie(waves.claims(actor, wave.id)))
    )
    const tasks = yield* Effect.forEach(
      ["1", "20", "21"] as const,
      (status_id) => movementTasks.listMovementTasks(actor, { status_id })
    )
    const measures = yield* Effect.flatMap(
      skus.listSkus(actor),
      Effect.forEach((listed) => Effect.orDie(skus.getSku(actor, listed.sku_id)))
    )
    const countRecords = actor.scope.client_id !== null ? [] : yield* Effect.flatMap(
      Effect.orDie(counts.listCounts(actor, {})),
      Effect.forEach((count) => Effect.orDie(counts.getCount(actor, count.id)))
    )
    return {
      contents,
      transactions,
      claims: claims.flat(),
      tasks: tasks.flat(),
      locations: yield* locations.listLocations(actor, {}),
      skus: measures,
      faces: yield* pickFaces.listPickFaces(actor, {}),
      counts: countRecords,
      orders: yield* orders.listOrders(actor, { lines: true }).pipe(
        Effect.map((listed) => listed.map((order) => ({ ...order, lines: order.lines ?? [] })))
      )
    } satisfies CycleSnapshot
  })
