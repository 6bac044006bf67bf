/**
 * Starting a wave and giving its stock back, inside the caller's transaction. A start plans the
 * allocation of the wave's orders (`Allocation.ts`, pure) a page of orders at a time and writes
 * each page's part of the plan as it comes (claimsets, claims with their tasks and Allocate
 * transactions, order statuses), then the allocation of the contents and the wave's status, and
 * raises `order_allocated` for each order that got stock, then `wave_started`. What is read and
 * planned for a page dies with it: a start holds the stock it allocates from and a few numbers per
 * order, never the whole plan. A release undoes the claims that are still allocated, with
 * Deallocate transactions.
 */
import { Clock, Effect, Option } from "effect"
import type { OrderRepository } from "../orders/OrderRepository.js"
import { toOrder } from "../orders/OrderView.js"
import type { EventPublisher } from "../shared/Events.js"
import { formatDate } from "../shared/Formats.js"
import { Status, type StatusId } from "../shared/Status.js"
import type { InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import {
  type AllocationPlan,
  makeAllocator,
  type OrderToAllocate,
  type PickType,
  type PlannedClaim,
  servingOrder
} from "./Allocation.js"
import { pickTypeDescription } from "./WaveDefinition.js"
import type { ClaimRow, StoredWave, WaveRepository } from "./WaveRepository.js"
import { toWaveDetail } from "./WaveView.js"

/** What starting and releasing read and write. */
export interface StartPorts {
  readonly waves: WaveRepository["Type"]
  readonly inventory: InventoryRepository["Type"]
  readonly orders: OrderRepository["Type"]
  readonly events: EventPublisher["Type"]
  readonly timeZone: string
}

/** Orders read, planned and written per page at a wave start: what a page holds dies young in the heap. */
const ordersPerPage = 250

/** Serving keys read per statement at the start of a large wave. */
const keysPerRead = 5_000

/** Claims written per batch at a wave start, carried over from page to page: every batch but the last is full. */
const claimsPerBatch = 1_000

/** Orders of one status set per batch at a wave start: every batch but the last of a status is full. */
const statusesPerBatch = 5_000

/** `order_allocated` events of a wave start: the window in which they are ordered by order id. */
const eventWindow = 5_000

/** Orders read and published per batch of `order_allocated` events: few enough to die young in the heap. */
const eventBatch = 200

/** The Deallocate transaction of a claim given back. */
const deallocateEntry = (claim: ClaimRow, createdAt: string) =>
  Ledger.entry("Deallocate", claim, {
    qty: claim.qty,
    from: claim.from_loc_id,
    to: claim.to_loc_id,
    final: claim.final_loc_id,
    order_id: claim.order_id,
    line_id: claim.line_id,
    notes: `Wave ${claim.wave_id}`,
    created_at: createdAt
  })

// A start writes a claim and an Allocate transaction for each line it serves, made by classes
// rather than object literals: V8 watches the objects of each literal, and once a whole batch of
// them outlived a minor collection it allocated every later one in the old generation
// ("pretenuring"), where the claims of a whole start stayed as garbage until a full collection.
// The instances of a class are always allocated young.

/** A claim of a wave start as `insertClaims` writes it. */
class ClaimToWrite implements Omit<ClaimRow, "id"> {
  readonly site_id: ClaimRow["site_id"]
  readonly client_id: ClaimRow["client_id"]
  readonly wave_id: number
  readonly claimset_id: number
  readonly content_id: number
  readonly order_ref: number
  readonly order_id: string
  readonly line_id: number
  readonly sku_id: string
  readonly qty: number
  readonly status = "allocated" as const
  readonly tag_id: string
  readonly from_loc_id: string
  readonly to_loc_id: string
  readonly final_loc_id: string
  readonly created_at: string
  constructor(wave: StoredWave, claim: PlannedClaim, claimsetId: number, createdAt: string) {
    this.site_id = wave.site_id
    this.client_id = claim.client_id as ClaimRow["client_id"]
    this.wave_id = wave.id
    this.claimset_id = claimsetId
    this.content_id = claim.content_id
    this.order_ref = claim.order_ref
    this.order_id = claim.order_id
    this.line_id = claim.line_id
    this.sku_id = claim.sku_id
    this.qty = claim.qty
    this.tag_id = claim.tag_id
    this.from_loc_id = claim.from_loc_id
    this.to_loc_id = claim.to_loc_id
    this.final_loc_id = claim.to_loc_id
    this.created_at = createdAt
  }
}

/** The Allocate transaction of a claim: what `Ledger.entry` makes of it. */
class AllocateEntry implements Ledger.NewLedgerEntry {
  readonly site_id: Ledger.NewLedgerEntry["site_id"]
  readonly client_id: Ledger.NewLedgerEntry["client_id"]
  readonly created_at: string
  readonly transaction_type = "Allocate" as const
  readonly content_id: number
  readonly from_loc_id: string
  readonly to_loc_id: string
  readonly final_loc_id: string
  readonly sku_id: string
  readonly qty: number
  readonly tag_id: string
  readonly order_id: string
  readonly line_id: number
  readonly notes: string
  readonly from_content_id = null
  readonly reason_code = null
  constructor(claim: ClaimToWrite, notes: string) {
    this.site_id = claim.site_id
    this.client_id = claim.client_id
    this.created_at = claim.created_at
    this.content_id = claim.content_id
    this.from_loc_id = claim.from_loc_id
    this.to_loc_id = claim.to_loc_id
    this.final_loc_id = claim.final_loc_id
    this.sku_id = claim.sku_id
    this.qty = claim.qty
    this.tag_id = claim.tag_id
    this.order_id = claim.order_id
    this.line_id = claim.line_id
    this.notes = notes
  }
}

/** The orders of a locked wave to plan, a page at a time, and the SKUs they ask for. */
interface OrdersToPlan {
  readonly skuIds: ReadonlyArray<string>
  readonly pages: number
  /** The orders of a page, by order ref: each page is served after the pages before it. */
  readonly page: (index: number) => Effect.Effect<ReadonlyArray<OrderToAllocate>>
}

/**
 * The refs of the wave's Released orders in serving order, locked. Their keys are read a few
 * thousand at a time into columns, with each date held once: 100,000 orders take a few megabytes.
 */
const ordersInServingOrder = Effect.fnUntraced(function*(waves: WaveRepository["Type"], waveId: number) {
  const refs: Array<number> = []
  const orderIds: Array<string> = []
  const orderDates: Array<string | null> = []
  const shipByDates: Array<string | null> = []
  const dates = new Map<string, string>()
  const once = (date: string | null) => {
    if (date === null) return null
    const held = dates.get(date)
    if (held !== undefined) return held
    dates.set(date, date)
    return date
  }
  for (let afterRef = 0;;) {
    const keys = yield* waves.orderKeysToAllocate(waveId, afterRef, keysPerRead)
    for (const key of keys) {
      refs.push(key.order_ref)
      orderIds.push(key.order_id)
      orderDates.push(once(key.order_date))
      shipByDates.push(once(key.ship_by_date))
    }
    if (keys.length < keysPerRead) return servingOrder({ refs, orderIds, orderDates, shipByDates })
    afterRef = keys[keys.length - 1].order_ref
  }
})

/**
 * The orders of a locked wave to plan, or none when it has no orders. A wave of less than a page is
 * planned from its first read. A larger one is read again a page at a time in serving order: of
 * its orders, only their refs are held, sorted by their serving keys. Combinators rather than a
 * generator, so that nothing holds the first read once a larger wave reads its keys.
 */
const ordersToPlan = (waves: WaveRepository["Type"], waveId: number): Effect.Effect<Option.Option<OrdersToPlan>> =>
  Effect.flatMap(
    waves.ordersToAllocate(waveId, ordersPerPage),
    (first) =>
      Effect.flatMap(waves.totals(waveId), (totals) => {
        if (totals.order_count === 0) return Effect.succeed(Option.none())
        if (first.length < ordersPerPage) {
          const skuIds = new Set<string>()
          for (const order of first) for (const line of order.lines) skuIds.add(line.sku_id)
          return Effect.succeed(Option.some({ skuIds: [...skuIds], pages: 1, page: () => Effect.succeed(first) }))
        }
        return Effect.map(largeWave(waves, waveId), Option.some)
      })
  )

/** The orders of a wave of more than a page, to plan a page at a time. */
const largeWave = Effect.fnUntraced(function*(waves: WaveRepository["Type"], waveId: number) {
  const refs = yield* ordersInServingOrder(waves, waveId)
  return {
    skuIds: yield* waves.skusToAllocate(waveId),
    pages: Math.ceil(refs.length / ordersPerPage),
    page: (index: number) =>
      waves.ordersToAllocateAmong(waveId, refs.slice(index * ordersPerPage, (index + 1) * ordersPerPage))
  }
})

/**
 * Writes the plan of a wave a page at a time, in statements of the sizes the whole plan would be
 * written in (a store prepares one statement per size): the claimsets a page opens before its
 * claims, the claims with their Allocate transactions in full batches carried over from page to
 * page, the statuses of orders in full batches of one status. What each content gains (one number
 * per content) and the orders that got stock (one per order) are held to the end.
 */
const makePlanWriter = (ports: StartPorts, wave: StoredWave, createdAt: string) => {
  const { inventory, waves } = ports
  const claimsetIds: Array<number> = []
  let claims: Array<ClaimToWrite> = []
  const allocatedByContent = new Map<number, number>()
  const statuses = new Map<StatusId, Array<number>>()
  const allocatedOrders: Array<number> = []

  // Built of combinators, not generators: a generator run for each page or batch made V8 keep what
  // the page read and wrote past the next minor collections, into the old generation.
  const notes = `Wave ${wave.id}`
  const writeClaims = (rows: ReadonlyArray<ClaimToWrite>) =>
    Effect.suspend(() =>
      Effect.zipRight(
        waves.insertClaims(rows),
        inventory.appendTransactions(rows.map((claim) => new AllocateEntry(claim, notes)))
      )
    )

  /**
   * Claims that fill whole batches, taken from those carried over and those of `page`. The planned
   * claims become claims to write at once (their claimsets are written): a planned claim never
   * outlives its page.
   */
  const fullBatches = (page: AllocationPlan) => {
    for (const claim of page.claims) {
      claims.push(new ClaimToWrite(wave, claim, claimsetIds[claim.claimset], createdAt))
    }
    const batches: Array<ReadonlyArray<ClaimToWrite>> = []
    let taken = 0
    for (; claims.length - taken >= claimsPerBatch; taken += claimsPerBatch) {
      batches.push(claims.slice(taken, taken + claimsPerBatch))
    }
    if (taken > 0) claims = claims.slice(taken)
    return batches
  }

  /** The statuses of `page` that fill whole batches of one status; the orders that got stock are noted. */
  const fullStatusBatches = (page: AllocationPlan) => {
    const batches: Array<ReadonlyMap<number, StatusId>> = []
    for (const [ref, status] of page.orderStatuses) {
      if (status !== Status.Released) allocatedOrders.push(ref)
      let refs = statuses.get(status)
      if (refs === undefined) statuses.set(status, refs = [])
      refs.push(ref)
      if (refs.length === statusesPerBatch) {
        batches.push(new Map(refs.map((r) => [r, status])))
        statuses.set(status, [])
      }
    }
    return batches
  }

  const write = (page: AllocationPlan) =>
    Effect.zipRight(
      page.claimsets.length === 0 ? Effect.void : Effect.map(
        waves.insertClaimsets(wave.id, page.claimsets),
        (ids) => {
          for (const id of ids) claimsetIds.push(id)
        }
      ),
      Effect.suspend(() => {
        for (const [contentId, qty] of page.allocatedByContent) {
          allocatedByContent.set(contentId, (allocatedByContent.get(contentId) ?? 0) + qty)
        }
        return Effect.zipRight(
          Effect.forEach(fullBatches(page), writeClaims, { discard: true }),
          Effect.forEach(fullStatusBatches(page), waves.setOrderStatuses, { discard: true })
        )
      })
    )

  /** Writes what is left, and answers the orders that got stock, in serving order. */
  const finish = Effect.fnUntraced(function*() {
    if (claims.length > 0) yield* writeClaims(claims)
    yield* inventory.changeAllocation(allocatedByContent)
    const rest = new Map<number, StatusId>()
    for (const [status, refs] of statuses) for (const ref of refs) rest.set(ref, status)
    if (rest.size > 0) yield* waves.setOrderStatuses(rest)
    return allocatedOrders
  })

  return { write, finish }
}

/** `order_allocated` for every order that got stock (given in serving order), then `wave_started` with the started wave. */
const publishStart = Effect.fnUntraced(function*(
  ports: StartPorts,
  wave: StoredWave,
  allocated: ReadonlyArray<number>
) {
  const { events, timeZone } = ports
  // Events go out in windows of 5,000 orders of the serving order, by id within a window. Each
  // window is read and published a couple of hundred orders at a time, so that a wave of 100,000
  // orders never holds more than that many order views at once.
  for (let start = 0; start < allocated.length; start += eventWindow) {
    const window = allocated.slice(start, start + eventWindow).sort((a, b) => a - b)
    for (let from = 0; from < window.length; from += eventBatch) {
      const orders = yield* ports.orders.findMany(window.slice(from, from + eventBatch))
      yield* events.publishAll(orders.map((order) => ({
        event_type: "order_allocated" as const,
        site_id: wave.site_id,
        client_id: order.header.client_id,
        data: toOrder(order, timeZone)
      })))
    }
  }
  yield* events.publish({
    event_type: "wave_started",
    site_id: wave.site_id,
    client_id: wave.client_id,
    data: toWaveDetail({ ...wave, status_id: Status.Allocated }, yield* ports.waves.totals(wave.id))
  })
})

/** Allocates a locked, Released wave; false when it has no orders. */
export const allocateWave = Effect.fnUntraced(function*(ports: StartPorts, wave: StoredWave) {
  const { waves } = ports
  const now = yield* Clock.currentTimeMillis
  const orders = yield* ordersToPlan(waves, wave.id)
  if (Option.isNone(orders)) return false
  const { page, pages, skuIds } = orders.value
  const stock = yield* waves.lockStock(wave.site_id, skuIds)
  const allocator = makeAllocator(stock, {
    waveId: wave.id,
    pickType: wave.pick_type as PickType,
    pickTypeDescription: pickTypeDescription(wave.pick_type),
    today: formatDate(now, ports.timeZone),
    defaultDock: yield* waves.defaultDock(wave.site_id)
  })
  const writer = makePlanWriter(ports, wave, new Date(now).toISOString())
  for (let index = 0; index < pages; index++) yield* writer.write(allocator(yield* page(index)))
  const allocated = yield* writer.finish()
  yield* waves.setStatus(wave.id, Status.Allocated)
  yield* publishStart(ports, wave, allocated)
  return true
})

/** Gives the stock of allocated claims back: Deallocate transactions, claims and tasks gone. */
export const releaseClaims = Effect.fnUntraced(function*(ports: StartPorts, claims: ReadonlyArray<ClaimRow>) {
  const { inventory, waves } = ports
  const open = claims.filter((claim) => claim.status === "allocated")
  if (open.length === 0) return
  const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
  const changes = new Map<number, number>()
  for (const claim of open) changes.set(claim.content_id, (changes.get(claim.content_id) ?? 0) - claim.qty)
  yield* inventory.changeAllocation(changes)
  yield* inventory.appendTransactions(open.map((claim) => deallocateEntry(claim, createdAt)))
  yield* waves.deleteClaims(open.map((claim) => claim.id))
  yield* waves.setOrderStatuses(new Map(open.map((claim) => [claim.order_ref, Status.Released as StatusId])))
})
