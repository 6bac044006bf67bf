/**
 * A site's state read through the services, as its API shows it: what the checkers run on.
 */
import { Effect } from "effect"
import { Locations } from "../locations/Locations.js"
import { Skus } from "../masterdata/Skus.js"
import { MovementTasks } from "../movement/MovementTasks.js"
import type { Actor } from "../shared/Tenancy.js"
import { Inventory } from "../stock/Inventory.js"
import { Waves } from "../waves/Waves.js"
import type { WarehouseSnapshot } from "./Views.js"

/**
 * The stock, ledger, claims, movement tasks (every status), locations and SKU measures of a
 * scope, as its API shows them. Capacity and occupancy are checked right only on a site-wide
 * actor's snapshot: a location counts every client's stock.
 */
export const snapshot = (actor: Actor) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    const waves = yield* Waves
    const movementTasks = yield* MovementTasks
    const locations = yield* Locations
    const skus = yield* Skus
    const contents = yield* inventory.overview(actor)
    const transactions = yield* inventory.transactions(actor)
    const claims = yield* Effect.flatMap(
      waves.list(actor),
      Effect.forEach((wave) => Effect.orDie(waves.claims(actor, wave.id)))
    )
    const tasks = yield* Effect.forEach(
      ["1", "20", "21"] as const,
      (status_id) => movementTasks.list(actor, { status_id })
    )
    const measures = yield* Effect.flatMap(
      skus.list(actor),
      Effect.forEach((listed) => Effect.orDie(skus.get(actor, listed.sku_id)))
    )
    return {
      contents,
      transactions,
      claims: claims.flat(),
      tasks: tasks.flat(),
      locations: yield* locations.list(actor, {}),
      skus: measures
    } satisfies WarehouseSnapshot
  })
