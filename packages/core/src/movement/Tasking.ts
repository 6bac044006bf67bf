/**
 * What the services that make movement tasks share (movement tasks, and receiving with putaway):
 * opening tasks on locked sources, planning the putaway of received stock, and showing a task.
 * The caller holds the locks and runs it in its transaction.
 */
import { Clock, Effect, Option } from "effect"
import type { Load } from "../locations/Capacity.js"
import type { LocationWithOccupancy } from "../locations/Location.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { formatDate, formatDateTime, TimeZone } from "../shared/Formats.js"
import { statusDescription } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import { available } from "../stock/Stock.js"
import type { MovementTaskRecord, MovementTaskType, NewMovementTask, StoredMovementTask } from "./MovementTask.js"
import { MovementTaskRepository } from "./MovementTaskRepository.js"
import { type PickFaceRoom, PickFaceRooms } from "./PickFaceRooms.js"
import { bySequence, planPutaway } from "./Putaway.js"

/** A task to open: `qty` of the locked `source` to carry to `to_loc_id`. */
export interface TaskToOpen {
  readonly source: Content
  readonly task_type: MovementTaskType
  readonly qty: number
  readonly to_loc_id: string
  readonly reason: string | null
}

/** What a putaway run plans: the tasks, and per content what found no room. */
export interface PutawayRun {
  readonly tasks: ReadonlyArray<TaskToOpen>
  readonly unplaced: ReadonlyArray<{ readonly content_id: number; readonly qty: number }>
}

/**
 * Whether stock at `locId` is at a receiving location: a managed one of type Receiving, or, when
 * it has no record, the site's receiving location.
 */
export const atReceiving = (
  locId: string,
  managed: Option.Option<LocationWithOccupancy>,
  receivingLocation: string
): boolean =>
  Option.match(managed, { onNone: () => locId === receivingLocation, onSome: (l) => l.loc_type === "Receiving" })

/** The load a task of `qty` of a content brings to its destination. */
export const loadOf = (
  content: Pick<Content, "sku_id" | "client_id" | "tag_id">,
  qty: number,
  sku: Option.Option<{ readonly each_weight: number | null; readonly each_volume: number | null }>
): Load => ({
  sku_id: content.sku_id,
  client_id: content.client_id,
  tag_id: content.tag_id,
  qty,
  each_weight: Option.match(sku, { onNone: () => null, onSome: (s) => s.each_weight }),
  each_volume: Option.match(sku, { onNone: () => null, onSome: (s) => s.each_volume })
})

export const makeTasking = Effect.gen(function*() {
  const inventory = yield* InventoryRepository
  const tasks = yield* MovementTaskRepository
  const locations = yield* LocationRepository
  const skus = yield* SkuRepository
  const pickFaces = yield* PickFaceRooms
  const timeZone = yield* TimeZone

  const toRecord = (task: StoredMovementTask): MovementTaskRecord => ({
    id: task.id,
    task_type: task.task_type,
    quantity: task.qty,
    content_id: task.content_id,
    sku_id: task.sku_id,
    tag_id: task.tag_id,
    from_loc_id: task.from_loc_id,
    to_loc_id: task.to_loc_id,
    final_loc_id: task.final_loc_id,
    creation_date: formatDate(task.created_at, timeZone),
    creation_datetime: formatDateTime(task.created_at, timeZone),
    status: statusDescription(task.status_id),
    status_id: task.status_id,
    created_by: task.created_by,
    reason: task.reason,
    client_id: task.client_id
  })

  /**
   * Opens tasks on their locked sources, whose checks passed: each source's `qty_tasked_from`
   * rises by what its tasks take, the tasks are stored in their order, and each writes its Task
   * transaction.
   */
  const open = Effect.fnUntraced(function*(actor: Actor, toOpen: ReadonlyArray<TaskToOpen>) {
    if (toOpen.length === 0) return []
    const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    const reserved = new Map<number, { readonly source: Content; qty: number }>()
    for (const task of toOpen) {
      const entry = reserved.get(task.source.content_id) ?? { source: task.source, qty: 0 }
      entry.qty += task.qty
      reserved.set(task.source.content_id, entry)
    }
    for (const { qty, source } of reserved.values()) {
      yield* inventory.setQuantities(source.content_id, {
        qty: source.qty,
        qty_allocated: source.qty_allocated,
        qty_tasked_from: source.qty_tasked_from + qty
      })
    }
    const rows = toOpen.map((task): NewMovementTask => ({
      site_id: task.source.site_id,
      client_id: task.source.client_id,
      task_type: task.task_type,
      status_id: 1,
      content_id: task.source.content_id,
      sku_id: task.source.sku_id,
      tag_id: task.source.tag_id,
      qty: task.qty,
      from_loc_id: task.source.loc_id,
      to_loc_id: task.to_loc_id,
      final_loc_id: task.to_loc_id,
      created_by: actor.userId,
      reason: task.reason,
      created_at: createdAt
    }))
    const ids = yield* tasks.insert(rows)
    yield* inventory.appendTransactions(rows.map((row, i) =>
      Ledger.entry("Task", toOpen[i].source, {
        qty: row.qty,
        from: row.from_loc_id,
        to: row.to_loc_id,
        notes: `Movement task ${ids[i]}`,
        created_at: createdAt
      })
    ))
    return rows.map((row, i) => toRecord({ ...row, id: ids[i] }))
  })

  /**
   * Plans the putaway of locked contents at receiving locations, one after the other: the
   * candidates are locked once per preferred location and set of pick faces, and each content
   * plans on the room the ones before it left. A SKU's pick faces are locked after the locations
   * (the order replenishment keeps) and their room up to `max_qty` is read under that lock.
   */
  const planPutaways = Effect.fnUntraced(function*(siteId: Content["site_id"], sources: ReadonlyArray<Content>) {
    const state = new Map<string, LocationWithOccupancy>()
    /** The ids of `state` in putaway's walk order, (sequence, loc_id): sorted once per run, not per content. */
    let walk: Array<string> = []
    const lockedFor = new Set<string>()
    /** Per SKU, its faces in loc_id order with the room each has left. */
    const faceRooms = new Map<string, ReadonlyArray<PickFaceRoom>>()
    const planned: Array<TaskToOpen> = []
    const unplaced: Array<{ content_id: number; qty: number }> = []
    for (const source of sources) {
      const qty = available(source)
      if (qty <= 0) continue
      const sku = yield* skus.find(siteId, source.sku_id)
      const preferred = Option.match(sku, { onNone: () => null, onSome: (s) => s.preferred_putaway_location })
      const faceLocIds = yield* pickFaces.ofSku(siteId, source.sku_id)
      const key = JSON.stringify([preferred, faceLocIds])
      if (!lockedFor.has(key)) {
        const locked = faceLocIds.length === 0
          ? yield* locations.lockPutawayCandidates(siteId, preferred)
          : yield* locations.lockPutawayCandidates(siteId, preferred, faceLocIds)
        const before = state.size
        for (const location of locked) {
          if (!state.has(location.loc_id)) state.set(location.loc_id, location)
        }
        if (state.size > before) walk = [...state.values()].sort(bySequence).map((location) => location.loc_id)
        lockedFor.add(key)
      }
      if (!faceRooms.has(source.sku_id)) {
        faceRooms.set(source.sku_id, yield* pickFaces.lockRooms(siteId, source.sku_id, faceLocIds))
      }
      const rooms = faceRooms.get(source.sku_id)!
      const candidates = walk.map((locId) => state.get(locId)!).filter((l) =>
        l.loc_type === "Storage" || l.loc_id === preferred || faceLocIds.includes(l.loc_id)
      )
      const plan = planPutaway(
        { ...source, qty },
        {
          preferred_putaway_location: preferred,
          qty_on_full_pallet: Option.match(sku, { onNone: () => null, onSome: (s) => s.qty_on_full_pallet }),
          each_weight: Option.match(sku, { onNone: () => null, onSome: (s) => s.each_weight }),
          each_volume: Option.match(sku, { onNone: () => null, onSome: (s) => s.each_volume })
        },
        candidates,
        rooms
      )
      for (const location of plan.candidates) state.set(location.loc_id, location)
      for (const task of plan.tasks) {
        const face = rooms.find((f) => f.loc_id === task.to_loc_id)
        if (face !== undefined) face.room -= task.qty
      }
      planned.push(...plan.tasks.map((task) => ({
        source,
        task_type: "Putaway" as const,
        qty: task.qty,
        to_loc_id: task.to_loc_id,
        reason: null
      })))
      if (plan.unplaced > 0) unplaced.push({ content_id: source.content_id, qty: plan.unplaced })
    }
    return { tasks: planned, unplaced } satisfies PutawayRun
  })

  return { toRecord, open, planPutaways } as const
})
