/**
 * `HoldDeallocation` as picking does it (spec §1 H2): a pick task on newly held stock is cancelled
 * as a short pick of the whole task would be (DECISIONS §7, the site settings
 * `reallocate_short_picks` and `backorders`), except that its stock stays where it is: a
 * `Deallocate` row instead of `Lost`, nothing to lost and found, no control count. An open movement
 * task from held stock is cancelled (`Untask`).
 */
import { Clock, Effect, Layer, Option } from "effect"
import { SiteSettingsRepository } from "../admin/SiteSettingsRepository.js"
import { HoldDeallocation, type OpenWork } from "../holds/HoldDeallocation.js"
import { HoldRepository } from "../holds/HoldRepository.js"
import type { StoredMovementTask } from "../movement/MovementTask.js"
import { MovementTaskRepository } from "../movement/MovementTaskRepository.js"
import { OrderRepository } from "../orders/OrderRepository.js"
import { formatDate, TimeZone } from "../shared/Formats.js"
import type { SiteId } from "../shared/Ids.js"
import { Status } from "../shared/Status.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import type { ClaimRow } from "../waves/WaveRepository.js"
import { WaveRepository } from "../waves/WaveRepository.js"
import { progress } from "./Picking.js"
import { PickingRepository } from "./PickingRepository.js"
import { lockStockOfTask, reallocate } from "./ShortPick.js"

const byId = <A extends { readonly id: number }>(a: A, b: A) => a.id - b.id
const distinct = (ids: ReadonlyArray<number>) => [...new Set(ids)].sort((a, b) => a - b)

export const HoldDeallocationLive = Layer.effect(
  HoldDeallocation,
  Effect.gen(function*() {
    const holds = yield* HoldRepository
    const picking = yield* PickingRepository
    const orders = yield* OrderRepository
    const waves = yield* WaveRepository
    const movementTasks = yield* MovementTaskRepository
    const inventory = yield* InventoryRepository
    const siteSettings = yield* SiteSettingsRepository
    const timeZone = yield* TimeZone

    /** Locks the work in the lock order: waves, orders, claims, then movement tasks, each by id. */
    const lockWork = Effect.fnUntraced(function*(siteId: SiteId, work: OpenWork) {
      for (const waveId of distinct(work.claims.map((claim) => claim.wave_id))) yield* picking.lockWave(waveId)
      for (const orderRef of distinct(work.claims.map((claim) => claim.order_ref))) yield* orders.lock(orderRef)
      const claims: Array<ClaimRow> = []
      for (const claim of [...work.claims].sort(byId)) {
        const locked = yield* picking.lockOpenTask(claim.id)
        if (Option.isSome(locked)) claims.push(locked.value)
      }
      const tasks: Array<StoredMovementTask> = []
      const scope = { site_id: siteId, fulfillment: false, client_id: null }
      for (const task of [...work.tasks].sort(byId)) {
        const locked = yield* movementTasks.find(scope, task.id, true)
        if (Option.isSome(locked) && locked.value.status_id === 1) tasks.push(locked.value)
      }
      return { claims, tasks } satisfies OpenWork
    })

    /** Cancels a pick task whose stock a hold now covers: its order line loses that allocation. */
    const cancelPick = Effect.fnUntraced(function*(task: ClaimRow, holdId: number, createdAt: string) {
      const settings = yield* siteSettings.get(task.site_id as SiteId)
      const today = formatDate(yield* Clock.currentTimeMillis, timeZone)
      // Before the task closes: closing it would remove a claimset it leaves empty.
      const covered = settings.reallocate_short_picks
        ? yield* reallocate({ waves, inventory }, task, yield* lockStockOfTask(waves, task), task.qty, today, createdAt)
        : 0
      if (!(yield* picking.closeTask(task.id, 0))) return
      yield* inventory.changeAllocation(new Map([[task.content_id, -task.qty]]))
      yield* inventory.appendTransaction(Ledger.entry("Deallocate", task, {
        qty: task.qty,
        from: task.from_loc_id,
        to: task.to_loc_id,
        final: task.final_loc_id,
        order_id: task.order_id,
        line_id: task.line_id,
        notes: `Hold ${holdId} of task ${task.id}`,
        created_at: createdAt
      }))
      const backordered = settings.backorders ? task.qty - covered : 0
      if (backordered > 0) yield* picking.addBackordered(task.order_ref, task.line_id, backordered)
      const next = progress(
        yield* picking.openTaskCounts({ orderRef: task.order_ref, claimsetId: task.claimset_id, waveId: task.wave_id })
      )
      if (next.order === Status.Released) yield* picking.clearBackordered(task.order_ref)
      yield* waves.setOrderStatuses(new Map([[task.order_ref, next.order]]))
      yield* picking.setClaimsetStatus(task.claimset_id, next.claimset)
      yield* waves.setStatus(task.wave_id, next.wave)
    })

    /** Cancels movement tasks from held contents, each with its `Untask` row. */
    const cancelTasks = Effect.fnUntraced(function*(
      tasks: ReadonlyArray<StoredMovementTask>,
      contents: ReadonlyMap<number, Content>,
      createdAt: string
    ) {
      const untasked = new Map<number, number>()
      const entries: Array<Ledger.NewLedgerEntry> = []
      for (const task of tasks) {
        const source = contents.get(task.content_id)
        if (source === undefined) continue
        const closed = yield* movementTasks.close(task.id, {
          status_id: 21,
          to_loc_id: task.to_loc_id,
          final_loc_id: task.to_loc_id
        })
        if (!closed) continue
        untasked.set(source.content_id, (untasked.get(source.content_id) ?? 0) + task.qty)
        entries.push(Ledger.entry("Untask", source, {
          qty: task.qty,
          from: task.from_loc_id,
          to: task.to_loc_id,
          notes: `Movement task ${task.id}`,
          created_at: createdAt
        }))
      }
      for (const [contentId, qty] of untasked) {
        const source = contents.get(contentId)!
        yield* inventory.setQuantities(contentId, {
          qty: source.qty,
          qty_allocated: source.qty_allocated,
          qty_tasked_from: source.qty_tasked_from - qty
        })
      }
      yield* inventory.appendTransactions(entries)
    })

    return HoldDeallocation.of({
      prepare: (siteId, scope) =>
        Effect.flatMap(
          holds.openWork(siteId, scope.content_id === null ? scope : [scope.content_id]),
          (work) => lockWork(siteId as SiteId, work)
        ),
      deallocate: (actor, prepared, covered, holdId, createdAt) =>
        Effect.gen(function*() {
          const contents = new Map(covered.map((content) => [content.content_id, content]))
          // Work made on the stock since `prepare` read it (no more can be: the holds lock is taken).
          const now = yield* holds.openWork(actor.scope.site_id, [...contents.keys()])
          const seenClaims = new Set(prepared.claims.map((claim) => claim.id))
          const seenTasks = new Set(prepared.tasks.map((task) => task.id))
          const late = yield* lockWork(actor.scope.site_id, {
            claims: now.claims.filter((claim) => !seenClaims.has(claim.id)),
            tasks: now.tasks.filter((task) => !seenTasks.has(task.id))
          })
          const claims = [...prepared.claims, ...late.claims].filter((claim) => contents.has(claim.content_id))
          const tasks = [...prepared.tasks, ...late.tasks].filter((task) => contents.has(task.content_id))
          // Movement tasks first: they set a content's quantities whole, from the values locked.
          yield* cancelTasks(tasks.sort(byId), contents, createdAt)
          for (const claim of claims.sort(byId)) yield* cancelPick(claim, holdId, createdAt)
        })
    })
  })
)
