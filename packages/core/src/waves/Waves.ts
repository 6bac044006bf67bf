/**
 * Waves: created from a definition, they take the matching orders; started, they allocate stock
 * and create pick tasks in one transaction; deleted, they give every unit back. Messages are the
 * documented Dutch ones.
 */
import { Clock, Effect, Option } from "effect"
import { allocate, type PickType } from "./Allocation.js"
import { composeCustomerName } from "../orders/CustomerName.js"
import { Conflict, NotFound } from "../shared/Errors.js"
import { EventPublisher } from "../shared/Events.js"
import { formatDate, TimeZone } from "../shared/Formats.js"
import { InventoryRepository, type LedgerEntry } from "../stock/InventoryRepository.js"
import { OrderRepository } from "../orders/OrderRepository.js"
import { toOrder } from "../orders/OrderView.js"
import { Status, statusDescription, type StatusId } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { toTask } from "./TaskView.js"
import { Transactor } from "../shared/Transactor.js"
import type { WaveDetail, WaveRecord } from "./Wave.js"
import { criteriumDescription, pickTypeDescription } from "./WaveDefinition.js"
import { WaveDefinitions } from "./WaveDefinitions.js"
import { type ClaimRow, type StoredWave, WaveRepository } from "./WaveRepository.js"
import { matchesCriterion } from "./WaveSelection.js"

/** Claims written per batch at a wave start: bounds the rows held in memory at once. */
const claimsPerBatch = 1_000

/** `order_allocated` events of a wave start: the window in which they are ordered by order id. */
const eventWindow = 5_000

/** Orders read and published per batch of `order_allocated` events: few enough to die young in the heap. */
const eventBatch = 200

export const waveNotFound = (waveId: number) => new NotFound({ message: `Wave met id ${waveId} niet gevonden` })

export class Waves extends Effect.Service<Waves>()("@wms/core/Waves", {
  effect: Effect.gen(function*() {
    const waves = yield* WaveRepository
    const inventory = yield* InventoryRepository
    const orderRepository = yield* OrderRepository
    const events = yield* EventPublisher
    const definitions = yield* WaveDefinitions
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone

    const toRecord = (wave: StoredWave): WaveRecord => ({
      id: wave.id,
      status: statusDescription(wave.status_id),
      status_id: wave.status_id,
      criterium: criteriumDescription(wave.criterium_id),
      criterium_id: wave.criterium_id,
      value: wave.value,
      picktypedescription: pickTypeDescription(wave.pick_type),
      pick_type: wave.pick_type,
      autostart: wave.autostart,
      site_id: wave.site_id
    })

    const find = (actor: Actor, waveId: number) =>
      Effect.flatMap(waves.find(actor.scope, waveId), Option.match({
        onNone: () => Effect.fail(waveNotFound(waveId)),
        onSome: Effect.succeed
      }))

    const lock = (actor: Actor, waveId: number) =>
      Effect.flatMap(waves.lock(actor.scope, waveId), Option.match({
        onNone: () => Effect.fail(waveNotFound(waveId)),
        onSome: Effect.succeed
      }))

    const ledgerEntry = (claim: Omit<ClaimRow, "id">, type: "Allocate" | "Deallocate", createdAt: string) =>
      ({
        site_id: claim.site_id,
        client_id: claim.client_id,
        created_at: createdAt,
        transaction_type: type,
        content_id: claim.content_id,
        from_loc_id: claim.from_loc_id,
        to_loc_id: claim.to_loc_id,
        final_loc_id: claim.final_loc_id,
        sku_id: claim.sku_id,
        qty: claim.qty,
        tag_id: claim.tag_id,
        order_id: claim.order_id,
        line_id: claim.line_id,
        notes: `Wave ${claim.wave_id}`
      }) satisfies Omit<LedgerEntry, "id">

    /** Gives the stock of allocated claims back: Deallocate transactions, claims and tasks gone. */
    const release = Effect.fnUntraced(function*(claims: ReadonlyArray<ClaimRow>) {
      const open = claims.filter((claim) => claim.status === "allocated")
      if (open.length === 0) return
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      const changes = new Map<number, number>()
      for (const claim of open) changes.set(claim.content_id, (changes.get(claim.content_id) ?? 0) - claim.qty)
      yield* inventory.changeAllocation(changes)
      yield* inventory.appendTransactions(open.map((claim) => ledgerEntry(claim, "Deallocate", createdAt)))
      yield* waves.deleteClaims(open.map((claim) => claim.id))
      yield* waves.setOrderStatuses(new Map(open.map((claim) => [claim.order_ref, Status.Released as StatusId])))
    })

    /** `order_allocated` for every order that got stock, then `wave_started` with the started wave. */
    const publishStart = Effect.fnUntraced(function*(wave: StoredWave, statuses: ReadonlyMap<number, StatusId>) {
      const allocated = [...statuses].filter(([, status]) => status !== Status.Released).map(([ref]) => ref)
      // Events go out in windows of 5,000 orders of the serving order, by id within a window. Each
      // window is read and published a couple of hundred orders at a time, so that a wave of 100,000
      // orders never holds more than that many order views at once.
      for (let start = 0; start < allocated.length; start += eventWindow) {
        const window = allocated.slice(start, start + eventWindow).sort((a, b) => a - b)
        for (let from = 0; from < window.length; from += eventBatch) {
          const orders = yield* orderRepository.findMany(window.slice(from, from + eventBatch))
          yield* events.publishAll(orders.map((order) => ({
            event_type: "order_allocated" as const,
            site_id: wave.site_id,
            client_id: order.header.client_id,
            data: toOrder(order, timeZone)
          })))
        }
      }
      const totals = yield* waves.totals(wave.id)
      yield* events.publish({
        event_type: "wave_started",
        site_id: wave.site_id,
        client_id: wave.client_id,
        data: {
          ...toRecord({ ...wave, status_id: Status.Allocated }),
          ...totals,
          qty_short: totals.qty_ordered - totals.qty_allocated
        } satisfies WaveDetail
      })
    })

    /**
     * The allocation plan of a locked wave, or none when it has no orders. Its own step, so the
     * orders and stock it reads can be collected while the plan is written.
     */
    const planWave = Effect.fnUntraced(function*(wave: StoredWave, now: number) {
      const orders = yield* waves.ordersToAllocate(wave.id)
      if ((yield* waves.totals(wave.id)).order_count === 0) return Option.none()
      const skuIds = new Set<string>()
      for (const order of orders) for (const line of order.lines) skuIds.add(line.sku_id)
      const stock = yield* waves.lockStock(wave.site_id, [...skuIds])
      return Option.some(allocate(orders, stock, {
        waveId: wave.id,
        pickType: wave.pick_type as PickType,
        pickTypeDescription: pickTypeDescription(wave.pick_type),
        today: formatDate(now, timeZone),
        defaultDock: yield* waves.defaultDock(wave.site_id)
      }))
    })

    /** Allocates a locked, Released wave; false when it has no orders. */
    const allocateWave = Effect.fnUntraced(function*(wave: StoredWave) {
      const now = yield* Clock.currentTimeMillis
      const planned = yield* planWave(wave, now)
      if (Option.isNone(planned)) return false
      const plan = planned.value
      const createdAt = new Date(now).toISOString()
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
        yield* inventory.appendTransactions(claims.map((claim) => ledgerEntry(claim, "Allocate", createdAt)))
      }
      yield* inventory.changeAllocation(plan.allocatedByContent)
      yield* waves.setOrderStatuses(plan.orderStatuses)
      yield* waves.setStatus(wave.id, Status.Allocated)
      yield* publishStart(wave, plan.orderStatuses)
      return true
    })

    const create = Effect.fnUntraced(function*(actor: Actor, definitionId: number) {
      const definition = yield* definitions.get(actor, definitionId)
      const candidates = yield* waves.candidateOrders(actor.scope)
      const selected = candidates.filter((order) => matchesCriterion(definition.criterium_id, definition.value, order))
      const waveId = yield* waves.insert({
        site_id: actor.scope.site_id,
        client_id: actor.scope.client_id,
        status_id: Status.Released,
        criterium_id: definition.criterium_id,
        value: definition.value,
        pick_type: definition.pick_type as PickType,
        autostart: definition.autostart,
        created_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
        created_by: actor.userId
      })
      yield* waves.attachOrders(waveId, selected.map((order) => order.order_ref))
      if (selected.length === 0) return { message: `Wave met id ${waveId} is aangemaakt maar bevat geen orders`, wave_id: waveId }
      if (!definition.autostart) return { message: `Wave met id ${waveId} is aangemaakt`, wave_id: waveId }
      yield* allocateWave(Option.getOrThrow(yield* waves.lock(actor.scope, waveId)))
      return { message: `Wave met id ${waveId} wordt aangemaakt en automatisch gestart`, wave_id: waveId }
    }, atomically)

    const start = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      const wave = yield* lock(actor, waveId)
      if (wave.status_id !== Status.Released) return yield* new Conflict({ message: `Wave met id ${waveId} is al gestart` })
      if (!(yield* allocateWave(wave))) return { message: "Geen orders in deze wave" }
      return { message: `Wave met id ${waveId} is gestart` }
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      const wave = yield* lock(actor, waveId)
      const claims = yield* waves.lockClaims({ waveId })
      if (claims.some((claim) => claim.status === "picked") || wave.status_id === Status.InProgress) {
        return yield* new Conflict({ message: `Wave met id ${waveId} kan niet worden verwijderd: het picken is begonnen` })
      }
      yield* release(claims)
      yield* waves.remove(waveId)
    }, atomically)

    /**
     * Gives back the allocation of an order that is about to be deleted. Once picking of it has
     * started that is a 409. Runs inside the caller's transaction.
     */
    const releaseOrder = Effect.fnUntraced(function*(orderId: string, orderRef: number) {
      const claims = yield* waves.lockClaims({ orderRef })
      if (claims.some((claim) => claim.status === "picked")) {
        return yield* new Conflict({
          message: `Order with OrderID ${orderId} cannot be deleted: picking has started`
        })
      }
      yield* release(claims)
    })

    const list = Effect.fnUntraced(function*(actor: Actor) {
      return (yield* waves.list(actor.scope)).map(toRecord)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      const wave = yield* find(actor, waveId)
      const totals = yield* waves.totals(waveId)
      return {
        ...toRecord(wave),
        ...totals,
        qty_short: totals.qty_ordered - totals.qty_allocated
      } satisfies WaveDetail
    })

    const orders = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return (yield* waves.orders(waveId)).map((order) => ({
        order_id: order.order_id,
        order_date: order.order_date,
        status: statusDescription(order.status_id),
        customer: order.customer_name === null ? null : composeCustomerName(order.customer_name, order.customer_town),
        ship_by_date: order.ship_by_date,
        carrier: order.carrier_name,
        ship_dock: order.ship_dock
      }))
    })

    const claimsets = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return yield* waves.claimsets(waveId)
    })

    const claims = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return (yield* waves.claims(waveId)).map((claim) => ({
        id: claim.id,
        content_id: claim.content_id,
        sku_id: claim.sku_id,
        qty: claim.qty,
        order_id: claim.order_id,
        line_id: claim.line_id,
        claimset: claim.claimset_id,
        status: claim.status,
        loc_id: claim.from_loc_id
      }))
    })

    /** The pick tasks of a wave: one per claim still allocated. */
    const tasks = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return (yield* waves.claims(waveId)).filter((claim) => claim.status === "allocated").map((claim) =>
        toTask(claim, timeZone)
      )
    })

    return { list, get, orders, claimsets, claims, tasks, create, start, remove, releaseOrder } as const
  })
}) {}
