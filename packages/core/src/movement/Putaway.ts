/**
 * The putaway planner, pure and deterministic (warehouse cycle §3.2 P2): where the stock of a
 * content at a receiving location goes. Full pallets first, each to the SKU's preferred location
 * when it takes stock and has room, else to the first Storage location by (sequence, loc_id) that
 * does, those in the preferred location's zone first; then the rest as one task: to the SKU's
 * first pick face (by loc_id) whose room up to `max_qty` covers it and that takes it, else the
 * same way as a pallet.
 * A target never is the content's own location, is not dedicated to another client and holds no
 * other SKU of another client. What finds no room is left unplaced.
 */
import { fits, type Load, withInbound } from "../locations/Capacity.js"
import { type LocationWithOccupancy, takesStockIn } from "../locations/Location.js"

/** The content to put away: `qty` is what is available of it. */
export interface PutawayContent {
  readonly content_id: number
  readonly sku_id: string
  readonly client_id: string | null
  readonly tag_id: string
  readonly loc_id: string
  readonly qty: number
}

/** What the planner reads of the content's SKU. */
export interface PutawaySku {
  readonly preferred_putaway_location: string | null
  readonly qty_on_full_pallet: number | null
  readonly each_weight: number | null
  readonly each_volume: number | null
}

/** A pick face of the SKU: its location, and how much more it takes up to its `max_qty`. */
export interface PutawayFace {
  readonly loc_id: string
  readonly room: number
}

/** One task the planner proposes. */
export interface PlannedPutaway {
  readonly to_loc_id: string
  readonly qty: number
}

export interface PutawayPlan {
  readonly tasks: ReadonlyArray<PlannedPutaway>
  /** What found no room and stays where it is. */
  readonly unplaced: number
  /** The candidates with the planned tasks inbound: the state the next content of the same run plans on. */
  readonly candidates: ReadonlyArray<LocationWithOccupancy>
}

/** Whether a location may take stock of the content's client at all. */
const acceptsClient = (location: LocationWithOccupancy, content: PutawayContent) =>
  (location.client_id === null || location.client_id === content.client_id) &&
  location.occupancy.holdings.every((h) => h.client_id === content.client_id || h.sku_id === content.sku_id)

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The order of putaway's walk through storage: by `sequence`, then `loc_id`. */
export const bySequence = (a: LocationWithOccupancy, b: LocationWithOccupancy) =>
  a.sequence - b.sequence || byText(a.loc_id, b.loc_id)

/**
 * Locations by (sequence, loc_id), those in `zone` first. A run plans every content of a receipt
 * on the same candidates, which its caller keeps in this order: they are sorted only when they are
 * not, and the zone is a stable split, so a content costs a pass over them, not a sort.
 */
const walkOrder = (locations: Array<LocationWithOccupancy>, zone: string | null) => {
  if (locations.some((location, i) => i > 0 && bySequence(locations[i - 1], location) > 0)) {
    locations.sort(bySequence)
  }
  return zone === null
    ? locations
    : [...locations.filter((l) => l.zone === zone), ...locations.filter((l) => l.zone !== zone)]
}

/**
 * Plans the putaway of `content` among the locked `candidates` (every Storage location, and the
 * preferred one when it is managed, and the locations of `faces`).
 */
export const planPutaway = (
  content: PutawayContent,
  sku: PutawaySku,
  candidates: ReadonlyArray<LocationWithOccupancy>,
  faces: ReadonlyArray<PutawayFace> = []
): PutawayPlan => {
  const state = new Map(candidates.map((location) => [location.loc_id, location]))
  const preferred = sku.preferred_putaway_location === null ? undefined : state.get(sku.preferred_putaway_location)
  const zone = preferred?.zone ?? null
  const storage = walkOrder(candidates.filter((location) => location.loc_type === "Storage"), zone)
    .map((location) => location.loc_id)

  const usable = (location: LocationWithOccupancy | undefined, load: Load): location is LocationWithOccupancy =>
    location !== undefined && location.loc_id !== content.loc_id && takesStockIn(location.status) &&
    acceptsClient(location, content) && fits(location, load)

  /** The target of a load, with it counted as inbound there; undefined when none has room. */
  const place = (load: Load) => {
    const current = preferred === undefined ? undefined : state.get(preferred.loc_id)
    const target = usable(current, load)
      ? current
      : storage.map((id) => state.get(id)).find((location) => usable(location, load))
    if (target !== undefined) state.set(target.loc_id, withInbound(target, load))
    return target?.loc_id
  }

  const load = (qty: number, tagId: string): Load => ({
    sku_id: content.sku_id,
    client_id: content.client_id,
    tag_id: tagId,
    qty,
    each_weight: sku.each_weight,
    each_volume: sku.each_volume
  })

  const tasks: Array<PlannedPutaway> = []
  let rest = content.qty
  let unplaced = 0
  const pallet = sku.qty_on_full_pallet ?? 0
  if (pallet > 0) {
    for (let n = 0; rest >= pallet; n++) {
      // Each pallet is a tag of its own wherever it goes, though it shares the content's tag id:
      // its key (with a NUL, which no tag id holds) makes it count as one more tag.
      const target = place(load(pallet, `${content.tag_id}\u0000pallet ${content.content_id}/${n}`))
      rest -= pallet
      // A pallet that fits nowhere leaves every pallet after it, of the same size, unplaced too.
      if (target === undefined) {
        unplaced += pallet + Math.floor(rest / pallet) * pallet
        rest %= pallet
        break
      }
      tasks.push({ to_loc_id: target, qty: pallet })
    }
  }
  if (rest > 0) {
    const rested = load(rest, content.tag_id)
    const face = faces
      .filter((f) => f.room >= rest)
      .map((f) => state.get(f.loc_id))
      .find((location) => location?.loc_type === "PickFace" && usable(location, rested))
    if (face !== undefined) state.set(face.loc_id, withInbound(face, rested))
    const target = face?.loc_id ?? place(rested)
    if (target === undefined) unplaced += rest
    else tasks.push({ to_loc_id: target, qty: rest })
  }
  return { tasks, unplaced, candidates: candidates.map((location) => state.get(location.loc_id)!) }
}
