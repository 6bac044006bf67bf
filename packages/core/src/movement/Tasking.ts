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
import { formatDateTime, TimeZone } from "../shared/Formats.js"
import { statusDescription } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import { available } from "../stock/Stock.js"
import type { MovementTaskRecord, MovementTaskType, NewMovementTask, StoredMovementTask } from "./MovementTask.js"
import { MovementTaskRepository } from "./MovementTaskRepository.js"
import { type PickFaceRoom, PickFaceRooms } from "./PickFaceRooms.js"
import { makePutawayPlanner } from "./Putaway.js"

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

  /** How a task created at `createdAt` shows its creation: its date is the first part of its date-time, formatted once. */
  const creationOf = (createdAt: string) => {
    const datetime = formatDateTime(createdAt, timeZone)
    return { date: datetime.slice(0, 10), datetime }
  }

  /** The task as the API shows it; `creation` given when many tasks share their creation time. */
  const toRecord = (task: StoredMovementTask, creation = creationOf(task.created_at)): MovementTaskRecord => ({
    id: task.id,
    task_type: task.task_type,
    quantity: task.qty,
    content_id: task.content_id,
    sku_id: task.sku_id,
    tag_id: task.tag_id,
    from_loc_id: task.from_loc_id,
    to_loc_id: task.to_loc_id,
    final_loc_id: task.final_loc_id,
    creation_date: creation.date,
    creation_datetime: creation.datetime,
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
    yield* inventory.setQuantitiesOf(
      new Map([...reserved.values()].map(({ qty, source }) => [source.content_id, {
        qty: source.qty,
        qty_allocated: source.qty_allocated,
        qty_tasked_from: source.qty_tasked_from + qty
      }]))
    )
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
    const creation = creationOf(createdAt)
    return rows.map((row, i) => toRecord({ ...row, id: ids[i] }, creation))
  })

  /**
   * Plans the putaway of locked contents at receiving locations, one after the other, each on the
   * room the ones before it left. What the run needs is read once: the SKUs, their pick faces, the
   * candidates (every Storage location, the preferred locations and the faces), locked in one
   * statement; then the faces' room up to `max_qty`, under their lock, taken after the locations'
   * (the order replenishment keeps).
   */
  const planPutaways = Effect.fnUntraced(function*(siteId: Content["site_id"], sources: ReadonlyArray<Content>) {
    const toPlan = sources.filter((source) => available(source) > 0)
    if (toPlan.length === 0) return { tasks: [], unplaced: [] } satisfies PutawayRun
    const skuIds = [...new Set(toPlan.map((source) => source.sku_id))]
    const skusById = yield* skus.findMany(siteId, skuIds)
    const facesOf = yield* pickFaces.ofSkus(siteId, skuIds)
    const also = new Set<string>()
    for (const sku of skusById.values()) {
      if (sku.preferred_putaway_location !== null) also.add(sku.preferred_putaway_location)
    }
    for (const locIds of facesOf.values()) for (const locId of locIds) also.add(locId)
    const planner = makePutawayPlanner(yield* locations.lockPutawayCandidates(siteId, null, [...also]))
    /** Per SKU with faces, its faces in loc_id order with the room each has left. */
    const faceRooms = new Map<string, ReadonlyArray<PickFaceRoom>>()
    for (const skuId of skuIds) {
      const locIds = facesOf.get(skuId) ?? []
      if (locIds.length > 0) faceRooms.set(skuId, yield* pickFaces.lockRooms(siteId, skuId, locIds))
    }
    const planned: Array<TaskToOpen> = []
    const unplaced: Array<{ content_id: number; qty: number }> = []
    for (const source of toPlan) {
      const sku = skusById.get(source.sku_id)
      const rooms = faceRooms.get(source.sku_id) ?? []
      const plan = planner.plan(
        { ...source, qty: available(source) },
        {
          preferred_putaway_location: sku?.preferred_putaway_location ?? null,
          qty_on_full_pallet: sku?.qty_on_full_pallet ?? null,
          each_weight: sku?.each_weight ?? null,
          each_volume: sku?.each_volume ?? null
        },
        rooms
      )
      for (const task of plan.tasks) {
        const face = rooms.find((f) => f.loc_id === task.to_loc_id)
        if (face !== undefined) face.room -= task.qty
      }
      for (const task of plan.tasks) {
        planned.push({ source, task_type: "Putaway", qty: task.qty, to_loc_id: task.to_loc_id, reason: null })
      }
      if (plan.unplaced > 0) unplaced.push({ content_id: source.content_id, qty: plan.unplaced })
    }
    return { tasks: planned, unplaced } satisfies PutawayRun
  })

  return { toRecord, open, planPutaways } as const
})
