/**
 * Starting a wave and giving its stock back, inside the caller's transaction. A start plans the
 * allocation of the wave's orders (`allocate`, pure), writes the plan (claimsets, claims with
 * their tasks and Allocate transactions, the allocation, the statuses) and raises
 * `order_allocated` for each order that got stock, then `wave_started`. A release undoes the
 * claims that are still allocated, with Deallocate transactions.
 */
import { Clock, Effect, Option } from "effect"
import type { OrderRepository } from "../orders/OrderRepository.js"
import { toOrder } from "../orders/OrderView.js"
import type { EventPublisher } from "../shared/Events.js"
import { formatDate } from "../shared/Formats.js"
import { Status, type StatusId } from "../shared/Status.js"
import type { InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import { allocate, type AllocationPlan, type PickType } from "./Allocation.js"
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

/** Claims written per batch at a wave start: bounds the rows held in memory at once. */
const claimsPerBatch = 1_000

/** `order_allocated` events of a wave start: the window in which they are ordered by order id. */
const eventWindow = 5_000

/** Orders read and published per batch of `order_allocated` events: few enough to die young in the heap. */
const eventBatch = 200

/** The Allocate or Deallocate transaction of a claim. */
const claimEntry = (type: "Allocate" | "Deallocate", claim: Omit<ClaimRow, "id">, createdAt: string) =>
  Ledger.entry(type, claim, {
    qty: claim.qty,
    from: claim.from_loc_id,
    to: claim.to_loc_id,
    final: claim.final_loc_id,
    order_id: claim.order_id,
    line_id: claim.line_id,
    notes: `Wave ${claim.wave_id}`,
    created_at: createdAt
  })

/**
 * The allocation plan of a locked wave, or none when it has no orders. Its own step, so the
 * orders and stock it reads can be collected while the plan is written.
 */
const planWave = Effect.fnUntraced(function*(ports: StartPorts, wave: StoredWave, now: number) {
  const { waves } = ports
  const orders = yield* waves.ordersToAllocate(wave.id)
  if ((yield* waves.totals(wave.id)).order_count === 0) return Option.none()
  const skuIds = new Set<string>()
  for (const order of orders) for (const line of order.lines) skuIds.add(line.sku_id)
  const stock = yield* waves.lockStock(wave.site_id, [...skuIds])
  return Option.some(allocate(orders, stock, {
    waveId: wave.id,
    pickType: wave.pick_type as PickType,
    pickTypeDescription: pickTypeDescription(wave.pick_type),
    today: formatDate(now, ports.timeZone),
    defaultDock: yield* waves.defaultDock(wave.site_id)
  }))
})

/** Writes the plan of a wave: claimsets, claims and their transactions, allocation and statuses. */
const writePlan = Effect.fnUntraced(function*(
  ports: StartPorts,
  wave: StoredWave,
  plan: AllocationPlan,
  createdAt: string
) {
  const { inventory, waves } = ports
  const claimsetIds = yield* waves.insertClaimsets(wave.id, plan.claimsets)
  // Claims and their Allocate transactions are written a batch at a time: only one batch of
  // rows exists at once, however many claims the plan holds.
  for (let start = 0; start < plan.claims.length; start += claimsPerBatch) {
    const claims = plan.claims.slice(start, start + claimsPerBatch).map((claim): Omit<ClaimRow, "id"> => ({
      site_id: wave.site_id,
      client_id: claim.client_id as ClaimRow["client_id"],
      wave_id: wave.id,
      claimset_id: claimsetIds[claim.claimset],
      content_id: claim.content_id,
      order_ref: claim.order_ref,
      order_id: claim.order_id,
      line_id: claim.line_id,
      sku_id: claim.sku_id,
      qty: claim.qty,
      status: "allocated",
      tag_id: claim.tag_id,
      from_loc_id: claim.from_loc_id,
      to_loc_id: claim.to_loc_id,
      final_loc_id: claim.to_loc_id,
      created_at: createdAt
    }))
    yield* waves.insertClaims(claims)
    yield* inventory.appendTransactions(claims.map((claim) => claimEntry("Allocate", claim, createdAt)))
  }
  yield* inventory.changeAllocation(plan.allocatedByContent)
  yield* waves.setOrderStatuses(plan.orderStatuses)
  yield* waves.setStatus(wave.id, Status.Allocated)
})

/** `order_allocated` for every order that got stock, then `wave_started` with the started wave. */
const publishStart = Effect.fnUntraced(function*(
  ports: StartPorts,
  wave: StoredWave,
  statuses: ReadonlyMap<number, StatusId>
) {
  const { events, timeZone } = ports
  const allocated = [...statuses].filter(([, status]) => status !== Status.Released).map(([ref]) => ref)
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
  const now = yield* Clock.currentTimeMillis
  const planned = yield* planWave(ports, wave, now)
  if (Option.isNone(planned)) return false
  yield* writePlan(ports, wave, planned.value, new Date(now).toISOString())
  yield* publishStart(ports, wave, planned.value.orderStatuses)
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
  yield* inventory.appendTransactions(open.map((claim) => claimEntry("Deallocate", claim, createdAt)))
  yield* waves.deleteClaims(open.map((claim) => claim.id))
  yield* waves.setOrderStatuses(new Map(open.map((claim) => [claim.order_ref, Status.Released as StatusId])))
})
