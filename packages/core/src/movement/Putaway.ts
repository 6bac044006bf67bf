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
import { fits, type Load, roomForNewTag, withInbound } from "../locations/Capacity.js"
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
 * One order of putaway's walk through storage (by sequence and id, one zone's locations first),
 * and where each location stands in it. `next[i]` skips ahead over locations without room for a
 * new tag (`roomForNewTag`): once without, a location stays so for the run, so the walk of a load
 * with a new tag passes each full location once per run, not once per load.
 */
interface Walk {
  readonly ids: ReadonlyArray<string>
  readonly position: ReadonlyMap<string, number>
  readonly next: Int32Array
}

/** What one content's plan answers: the tasks, and what found no room and stays where it is. */
export interface ContentPlan {
  readonly tasks: ReadonlyArray<PlannedPutaway>
  readonly unplaced: number
}

/**
 * A putaway run over the locked `candidates` (every Storage location, the managed preferred
 * locations and the pick faces of the contents to plan): it plans contents one after the other,
 * each on the room the ones before it left.
 */
export interface PutawayPlanner {
  /**
   * Plans the putaway of `content`; `faces` are its SKU's pick faces. Of the candidates it
   * considers the Storage locations, the SKU's preferred location and the locations of `faces`.
   */
  readonly plan: (content: PutawayContent, sku: PutawaySku, faces?: ReadonlyArray<PutawayFace>) => ContentPlan
  /** The candidates, in the order given, with every task planned so far inbound. */
  readonly candidates: () => ReadonlyArray<LocationWithOccupancy>
}

export const makePutawayPlanner = (candidates: ReadonlyArray<LocationWithOccupancy>): PutawayPlanner => {
  const state = new Map(candidates.map((location) => [location.loc_id, location]))
  const storage = candidates.filter((location) => location.loc_type === "Storage").sort(bySequence)
  /** Per tag, the locations holding it (on hand or inbound): the only ones a load of it may fit once full. */
  const holders = new Map<string, Array<string>>()
  const hold = (tagId: string, locId: string) => {
    const at = holders.get(tagId)
    if (at === undefined) holders.set(tagId, [locId])
    else at.push(locId)
  }
  for (const location of storage) {
    for (const tagId of location.occupancy.tag_ids) hold(tagId, location.loc_id)
  }
  const walks = new Map<string | null, Walk>()
  const walkOf = (zone: string | null): Walk => {
    let walk = walks.get(zone)
    if (walk === undefined) {
      const ordered = zone === null
        ? storage
        : [...storage.filter((l) => l.zone === zone), ...storage.filter((l) => l.zone !== zone)]
      const ids = ordered.map((location) => location.loc_id)
      walk = {
        ids,
        position: new Map(ids.map((id, i) => [id, i])),
        next: Int32Array.from({ length: ids.length + 1 }, (_, i) => i)
      }
      walks.set(zone, walk)
    }
    return walk
  }
  /** The first position from `from` on in the walk whose location has room for a new tag (the end when none). */
  const openFrom = (walk: Walk, from: number) => {
    const { ids, next } = walk
    let at = from
    while (at < ids.length) {
      if (next[at] !== at) at = next[at]
      else if (!roomForNewTag(state.get(ids[at])!)) next[at] = ++at
      else break
    }
    // Every position passed now skips straight to `at`.
    for (let i = from; i < at;) {
      const after = next[i]
      next[i] = at
      i = after
    }
    return at
  }

  const plan = (content: PutawayContent, sku: PutawaySku, faces: ReadonlyArray<PutawayFace> = []): ContentPlan => {
    const preferred = sku.preferred_putaway_location === null ? undefined : state.get(sku.preferred_putaway_location)
    const walk = walkOf(preferred?.zone ?? null)

    const usable = (location: LocationWithOccupancy | undefined, load: Load): location is LocationWithOccupancy =>
      location !== undefined && location.loc_id !== content.loc_id && takesStockIn(location.status) &&
      acceptsClient(location, content) && fits(location, load)

    const arrive = (location: LocationWithOccupancy, load: Load) => {
      if (!location.occupancy.tag_ids.includes(load.tag_id)) hold(load.tag_id, location.loc_id)
      state.set(location.loc_id, withInbound(location, load))
    }

    /**
     * The first usable location of the walk: the first with room for a new tag that takes the
     * load, unless one before it without that room holds the load's tag and takes it.
     */
    const firstInWalk = (load: Load) => {
      let found = walk.ids.length
      for (let at = openFrom(walk, 0); at < walk.ids.length; at = openFrom(walk, at + 1)) {
        if (usable(state.get(walk.ids[at]), load)) {
          found = at
          break
        }
      }
      for (const locId of holders.get(load.tag_id) ?? []) {
        const at = walk.position.get(locId)
        if (at !== undefined && at < found && usable(state.get(locId), load)) found = at
      }
      return found < walk.ids.length ? state.get(walk.ids[found]) : undefined
    }

    /** The target of a load, with it counted as inbound there; undefined when none has room. */
    const place = (load: Load) => {
      const current = preferred === undefined ? undefined : state.get(preferred.loc_id)
      const target = usable(current, load) ? current : firstInWalk(load)
      if (target !== undefined) arrive(target, load)
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
      if (face !== undefined) arrive(face, rested)
      const target = face?.loc_id ?? place(rested)
      if (target === undefined) unplaced += rest
      else tasks.push({ to_loc_id: target, qty: rest })
    }
    return { tasks, unplaced }
  }

  return { plan, candidates: () => candidates.map((location) => state.get(location.loc_id)!) }
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
  const planner = makePutawayPlanner(candidates)
  return { ...planner.plan(content, sku, faces), candidates: planner.candidates() }
}
