/**
 * The capacity rule of managed locations, pure. A location's limits (`max_tags`, `max_weight`,
 * `max_volume`; null: unlimited) bound what is on hand there plus what open tasks bring
 * (inbound), so two tasks can never both take the last room. Weights and volumes count the SKU's
 * `each_weight` and `each_volume` (none: 0).
 */
import type { LocationWithOccupancy, Occupancy, StoredLocation } from "./Location.js"

/** Stock about to arrive at a location: `qty` of one SKU of one client, under one tag. */
export interface Load {
  readonly sku_id: string
  readonly client_id: string | null
  readonly tag_id: string
  readonly qty: number
  readonly each_weight: number | null
  readonly each_volume: number | null
}

// Weights and volumes are sums of products of decimals: a load that fills a limit exactly (3 × 0.1
// of 0.3) must not be refused for the last bit of a double.
const within = (max: number | null, value: number) => max === null || value <= max + Math.abs(max) * 1e-12

const tagsWith = (occupancy: Occupancy, tagId: string) =>
  occupancy.tag_ids.length + (occupancy.tag_ids.includes(tagId) ? 0 : 1)

/** Whether the location has a limit at all: one without has room for any load, whatever it holds. */
export const isLimited = (location: StoredLocation): boolean =>
  location.max_tags !== null || location.max_weight !== null || location.max_volume !== null

/** Whether the weight or volume of a load counts at the location: only under a limit of either. */
export const weighsLoads = (location: StoredLocation): boolean =>
  location.max_weight !== null || location.max_volume !== null

/** Whether the location has room for the load, counting what is on hand and inbound. */
export const fits = (location: LocationWithOccupancy, load: Load): boolean => {
  const o = location.occupancy
  return within(location.max_tags, tagsWith(o, load.tag_id)) &&
    within(location.max_weight, o.weight + o.inbound_weight + load.qty * (load.each_weight ?? 0)) &&
    within(location.max_volume, o.volume + o.inbound_volume + load.qty * (load.each_volume ?? 0))
}

/**
 * Whether a load of a tag the location does not hold could fit at all: the least any such load
 * asks for is one more tag and no weight or volume (both are never negative). Once false it stays
 * false while loads only arrive, whatever their size.
 */
export const roomForNewTag = (location: LocationWithOccupancy): boolean => {
  const o = location.occupancy
  return within(location.max_tags, o.tag_ids.length + 1) &&
    within(location.max_weight, o.weight + o.inbound_weight) &&
    within(location.max_volume, o.volume + o.inbound_volume)
}

/**
 * Whether what is on hand and inbound exceeds a limit of the location: only counts and
 * adjustments, which are facts and never refused, can bring a location there.
 */
export const overCapacity = (location: LocationWithOccupancy): boolean => {
  const o = location.occupancy
  return !within(location.max_tags, o.tags + o.inbound_tags) ||
    !within(location.max_weight, o.weight + o.inbound_weight) ||
    !within(location.max_volume, o.volume + o.inbound_volume)
}

/**
 * The location once a task bringing the load is planned: the load counts as inbound, so checks of
 * further tasks of the same operation see it.
 */
export const withInbound = (location: LocationWithOccupancy, load: Load): LocationWithOccupancy => {
  const o = location.occupancy
  const newTag = !o.tag_ids.includes(load.tag_id)
  const holds = o.holdings.some((h) => h.sku_id === load.sku_id && h.client_id === load.client_id)
  return {
    ...location,
    occupancy: {
      ...o,
      inbound_qty: o.inbound_qty + load.qty,
      inbound_tags: o.inbound_tags + (newTag ? 1 : 0),
      inbound_weight: o.inbound_weight + load.qty * (load.each_weight ?? 0),
      inbound_volume: o.inbound_volume + load.qty * (load.each_volume ?? 0),
      tag_ids: newTag ? [...o.tag_ids, load.tag_id] : o.tag_ids,
      holdings: holds ? o.holdings : [...o.holdings, { sku_id: load.sku_id, client_id: load.client_id }]
    }
  }
}
