/**
 * The replenishment planner, pure and deterministic (warehouse cycle §3.4 R2, R3, R5): whether a
 * pick face needs stock and which reserve contents bring it.
 *
 * - Needed when the face's level (`levelOf`) is below `min_qty`.
 * - Quantity: `max_qty − level`, rounded down to `replenish_multiple`, capped by the face's room
 *   (`Capacity.fits`, counting what is on hand and inbound there) and rounded down again. So the
 *   face never goes above `max_qty` nor over its capacity.
 * - Sources: the given reserve of the SKU and its client, not expired on `today`, in the FEFO order
 *   of allocation (`compareStock`). Each is taken whole while what is still wanted covers it, so a
 *   multiple of the pallet size moves whole pallets (tags) whenever the reserve holds them; only
 *   the last source is split. FEFO comes first: a tag is never skipped for a later whole one.
 *   A source whose tag the face has no room for ends the plan (the next ones would skip FEFO).
 */
import { fits, type Load, withInbound } from "../locations/Capacity.js"
import type { LocationWithOccupancy } from "../locations/Location.js"
import { compareStock, isAllocatable, type StockToAllocate } from "../stock/Fefo.js"
import { available } from "../stock/Stock.js"
import { type FaceStock, levelOf, type StoredPickFace } from "./PickFace.js"

/** What the planner reads of the face's SKU. */
export interface ReplenishSku {
  readonly client_id: string | null
  readonly each_weight: number | null
  readonly each_volume: number | null
}

/** One task the planner proposes: `qty` of a reserve content to the face. */
export interface PlannedReplenishment {
  readonly content_id: number
  readonly qty: number
}

export interface ReplenishmentPlan {
  readonly tasks: ReadonlyArray<PlannedReplenishment>
  /** The face with the planned tasks inbound. */
  readonly face: LocationWithOccupancy
}

const roundDown = (qty: number, multiple: number | null) => multiple === null ? qty : qty - (qty % multiple)

/** The most of `load`'s SKU and tag, up to `wanted`, the location has room for (0: none). */
export const room = (location: LocationWithOccupancy, load: Omit<Load, "qty">, wanted: number): number => {
  if (wanted <= 0 || !fits(location, { ...load, qty: 1 })) return 0
  if (fits(location, { ...load, qty: wanted })) return wanted
  let low = 1
  let high = wanted
  // The largest fitting quantity: fitting is monotone in the quantity.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (fits(location, { ...load, qty: middle })) low = middle
    else high = middle
  }
  return low
}

/**
 * Plans the replenishment of one face from `reserve` (contents with their current `available`,
 * any order). Nothing when the level is at `min_qty` or above.
 */
export const planReplenishment = (
  setting: StoredPickFace,
  stock: FaceStock,
  face: LocationWithOccupancy,
  sku: ReplenishSku,
  reserve: ReadonlyArray<StockToAllocate>,
  today: string
): ReplenishmentPlan => {
  const level = levelOf(stock)
  const nothing = { tasks: [], face }
  if (level >= setting.min_qty) return nothing
  const sources = reserve
    .filter((c) => c.sku_id === setting.sku_id && c.client_id === sku.client_id && isAllocatable(c, today))
    .sort(compareStock)

  const take = (wanted: number) => {
    const tasks: Array<PlannedReplenishment> = []
    let state = face
    let rest = wanted
    for (const source of sources) {
      if (rest === 0) break
      const load = {
        sku_id: setting.sku_id,
        client_id: sku.client_id,
        tag_id: source.tag_id,
        each_weight: sku.each_weight,
        each_volume: sku.each_volume
      }
      const qty = room(state, load, Math.min(available(source), rest))
      if (qty === 0) break
      tasks.push({ content_id: source.content_id, qty })
      state = withInbound(state, { ...load, qty })
      rest -= qty
    }
    return { tasks, face: state, total: wanted - rest }
  }

  const wanted = roundDown(setting.max_qty - level, setting.replenish_multiple)
  if (wanted <= 0) return nothing
  const first = take(wanted)
  // Room or reserve cut the quantity: plan again on the largest multiple of what fits.
  const fitting = roundDown(first.total, setting.replenish_multiple)
  if (fitting === first.total) return { tasks: first.tasks, face: first.face }
  if (fitting === 0) return nothing
  const second = take(fitting)
  return { tasks: second.tasks, face: second.face }
}
