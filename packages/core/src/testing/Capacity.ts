/**
 * The checkers of managed locations: tasks never overfill one (capacity), and its figures are
 * what is at it and on its way (occupancy). Both read the whole site, as a location's own figures
 * do: give them a snapshot taken by a site-wide actor.
 */
import type { LedgerRowView, LocationView, MovementTaskView, PlacedContentView, SkuMeasuresView } from "./Views.js"

const isOpen = (task: Pick<MovementTaskView, "status_id">) => task.status_id === 1

// A weight or volume that fills a limit exactly is within it, whatever the last bit of a double says.
const within = (max: number | null, value: number) => max === null || value <= max + Math.abs(max) * 1e-9
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))

/** What the checkers count at a location: on hand (contents with stock) and inbound (Open tasks to it). */
interface CountedOccupancy {
  readonly qty_on_hand: number
  readonly tags: number
  readonly weight: number
  readonly volume: number
  readonly inbound_qty: number
  readonly inbound_tags: number
  readonly inbound_weight: number
  readonly inbound_volume: number
}

const occupancyOf = (
  locId: string,
  contents: ReadonlyArray<PlacedContentView>,
  tasks: ReadonlyArray<MovementTaskView>,
  skus: ReadonlyArray<SkuMeasuresView>
): CountedOccupancy => {
  const measures = new Map(skus.map((sku) => [sku.sku_id, sku]))
  const weightOf = (skuId: string, qty: number) => qty * (measures.get(skuId)?.each_weight ?? 0)
  const volumeOf = (skuId: string, qty: number) => qty * (measures.get(skuId)?.each_volume ?? 0)
  const here = contents.filter((c) => c.loc_id === locId && c.qty > 0)
  const inbound = tasks.filter((t) => isOpen(t) && t.to_loc_id === locId)
  const tagsHere = new Set(here.map((c) => c.tag_id))
  const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)
  return {
    qty_on_hand: sum(here.map((c) => c.qty)),
    tags: tagsHere.size,
    weight: sum(here.map((c) => weightOf(c.sku_id, c.qty))),
    volume: sum(here.map((c) => volumeOf(c.sku_id, c.qty))),
    inbound_qty: sum(inbound.map((t) => t.quantity)),
    inbound_tags: new Set(inbound.map((t) => t.tag_id).filter((tag) => !tagsHere.has(tag))).size,
    inbound_weight: sum(inbound.map((t) => weightOf(t.sku_id, t.quantity))),
    inbound_volume: sum(inbound.map((t) => volumeOf(t.sku_id, t.quantity)))
  }
}

const exceeded = (location: LocationView, o: CountedOccupancy): ReadonlyArray<string> => [
  ...(within(location.max_tags, o.tags + o.inbound_tags)
    ? []
    : [`${o.tags} + ${o.inbound_tags} inbound tags over ${location.max_tags}`]),
  ...(within(location.max_weight, o.weight + o.inbound_weight)
    ? []
    : [`${o.weight} + ${o.inbound_weight} inbound kg over ${location.max_weight}`]),
  ...(within(location.max_volume, o.volume + o.inbound_volume)
    ? []
    : [`${o.volume} + ${o.inbound_volume} inbound cm³ over ${location.max_volume}`])
]

/**
 * Locations where stock arrived as a fact rather than by a task: a receipt (of a transfer too) or a return, or an adjustment or a
 * count variance upwards. Such stock is never refused for room, so only these may be over capacity.
 */
export const filledByFacts = (transactions: ReadonlyArray<LedgerRowView>): ReadonlySet<string> =>
  new Set(
    transactions
      .filter((t) =>
        t.transaction_type === "Receipt" || t.transaction_type === "TransferIn" || t.transaction_type === "Return" ||
        ((t.transaction_type === "Adjustment" || t.transaction_type === "Count") && t.qty > 0)
      )
      .map((t) => t.to_loc_id)
  )

/**
 * Tasks never overfill a location (P-L1): at every managed location with a limit, the distinct
 * tags on hand plus those inbound and not on hand stay within `max_tags`, and the weight and
 * volume on hand plus inbound (by the SKUs' `each_weight` and `each_volume`) within `max_weight`
 * and `max_volume`. Counted from the contents and Open tasks, not from the location's own figures.
 *
 * Receipts, adjustments and counts are facts and never refused for room: a location any of them
 * brought stock to (`filledByFacts`) is left out from then on, whether or not it went over. The limits
 * are taken as they are now: lowering one below what is there is not an overfill this can tell.
 */
export const checkCapacity = (
  locations: ReadonlyArray<LocationView>,
  contents: ReadonlyArray<PlacedContentView>,
  tasks: ReadonlyArray<MovementTaskView>,
  skus: ReadonlyArray<SkuMeasuresView>,
  transactions: ReadonlyArray<LedgerRowView>
): ReadonlyArray<string> => {
  const facts = filledByFacts(transactions)
  return locations
    .filter((l) => (l.max_tags !== null || l.max_weight !== null || l.max_volume !== null) && !facts.has(l.loc_id))
    .flatMap((l) =>
      exceeded(l, occupancyOf(l.loc_id, contents, tasks, skus)).map((over) => `location ${l.loc_id}: ${over}`)
    )
}

/**
 * A location shows what is at it and on its way: `qty_on_hand`, `tags`, `weight`, `volume`,
 * `inbound_qty`, `inbound_tags` and `over_capacity` agree with the contents and Open tasks.
 */
export const checkOccupancy = (
  locations: ReadonlyArray<LocationView>,
  contents: ReadonlyArray<PlacedContentView>,
  tasks: ReadonlyArray<MovementTaskView>,
  skus: ReadonlyArray<SkuMeasuresView>
): ReadonlyArray<string> =>
  locations.flatMap((l) => {
    const o = occupancyOf(l.loc_id, contents, tasks, skus)
    const counts = (["qty_on_hand", "tags", "inbound_qty", "inbound_tags"] as const)
      .filter((field) => l[field] !== o[field])
      .map((field) => `location ${l.loc_id}: ${field} ${l[field]}, counted ${o[field]}`)
    const measures = (["weight", "volume"] as const)
      .filter((field) => !near(l[field], o[field]))
      .map((field) => `location ${l.loc_id}: ${field} ${l[field]}, counted ${o[field]}`)
    const over = exceeded(l, o).length > 0
    return [
      ...counts,
      ...measures,
      ...(l.over_capacity === over ? [] : [`location ${l.loc_id}: over_capacity ${l.over_capacity}, counted ${over}`])
    ]
  })
