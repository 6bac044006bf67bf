/**
 * Picking and shipping (extension, DECISIONS §7). A pick task is its claim: confirming it takes
 * the picked stock off the content (a Pick transaction) and any rest as lost (a Lost transaction
 * and a lost-and-found item), raises the line's `qty_picked`, and moves the order, claimset and
 * wave on. Shipping an order whose tasks are all done ships what was picked. One transaction per
 * call; concurrent confirmations of one task close it once. Shipping makes the order's shipping
 * units Shipped, and with `pack_before_ship` waits for them (spec §4 P5). A transfer order ships to
 * its destination site instead (spec §3 T2, `transfers/Shipment.ts`).
 */
import { Clock, Effect, Option, Schema } from "effect"
import { SiteSettingsRepository } from "../admin/SiteSettingsRepository.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import { TextIdFromPath } from "../masterdata/MasterData.js"
import { OrderNotFound } from "../orders/Errors.js"
import { OrderRepository, type OrderRow } from "../orders/OrderRepository.js"
import { toOrder } from "../orders/OrderView.js"
import { shipGate } from "../packing/ShipGate.js"
import { ShippingUnitRepository } from "../packing/ShippingUnitRepository.js"
import { Replenishment } from "../replenishment/Replenishment.js"
import { invalidField } from "../shared/Errors.js"
import { EventPublisher } from "../shared/Events.js"
import { formatDate, RecordIdFromPath, TimeZone } from "../shared/Formats.js"
import { Status, type StatusId } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { ListWindow } from "../shared/Window.js"
import { CountInFlight } from "../stock/CountInFlight.js"
import { InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import { ShortPickReasonCode } from "../stock/ReasonCode.js"
import { shipTransfer } from "../transfers/Shipment.js"
import { TransferRepository } from "../transfers/TransferRepository.js"
import { toTask } from "../waves/TaskView.js"
import { WaveRepository } from "../waves/WaveRepository.js"
import { ControlCounts } from "./ControlCounts.js"
import { OrderNothingPicked, OrderShipped, OrderTasksOpen, TaskNotFound } from "./Errors.js"
import { type OpenTaskCounts, PickingRepository } from "./PickingRepository.js"
import { lockStockOfTask, openControlCount, reallocate, wantsControlCount } from "./ShortPick.js"

/** The query of `GET /tasks`: optional `wave_id` and `sku_id` filters, and a list window. */
export const TaskQuery = Schema.Struct({
  wave_id: Schema.optional(RecordIdFromPath),
  sku_id: Schema.optional(TextIdFromPath),
  ...ListWindow.fields
})
export type TaskQuery = typeof TaskQuery.Type

const PickedQuantity = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= 2147483647, {
    message: () => "must be an integer of at least 0",
    jsonSchema: { type: "integer", minimum: 0, maximum: 2147483647 }
  })
)

/**
 * The body of `POST /tasks/:id/confirm`; without `qty` the task's whole quantity is picked. A
 * short pick re-allocates its shortfall when `reallocate` says so, else when the site's
 * `reallocate_short_picks` does; `reason_code` is kept on its Lost transaction.
 */
export const ConfirmTaskRequest = Schema.Struct({
  qty: Schema.optionalWith(Schema.NullOr(PickedQuantity), { default: () => null }),
  reallocate: Schema.optionalWith(Schema.NullOr(Schema.Boolean), { default: () => null }),
  reason_code: Schema.optionalWith(Schema.NullOr(ShortPickReasonCode), { default: () => null })
})
export type ConfirmTaskRequest = typeof ConfirmTaskRequest.Type

/** A confirmation as the service takes it: a caller that does not short-pick may leave out the rest. */
export type ConfirmTask = Pick<ConfirmTaskRequest, "qty"> & Partial<ConfirmTaskRequest>

/**
 * The statuses after a confirmation, from the open tasks left: an order is In Progress until none
 * of its tasks is open, then Picked, or Released again when nothing of it was picked (every task
 * confirmed with qty 0: it holds no stock, and may be deleted or taken by a new wave); a claimset
 * is `picked` once none of its claims is open; a wave is In Progress until none of its tasks is
 * open, then Complete.
 */
export const progress = (left: OpenTaskCounts) => ({
  order: (left.order > 0 ? Status.InProgress : left.orderPicked > 0 ? Status.Picked : Status.Released) as StatusId,
  claimset: left.claimset === 0 ? "picked" as const : "released" as const,
  wave: (left.wave === 0 ? Status.Complete : Status.InProgress) as StatusId
})

export class Picking extends Effect.Service<Picking>()("@wms/core/Picking", {
  effect: Effect.gen(function*() {
    const picking = yield* PickingRepository
    const inventory = yield* InventoryRepository
    const orders = yield* OrderRepository
    const waves = yield* WaveRepository
    const events = yield* EventPublisher
    const counts = yield* CountInFlight
    const controlCounts = yield* ControlCounts
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone
    const replenishment = yield* Replenishment
    const siteSettings = yield* SiteSettingsRepository
    const locations = yield* LocationRepository
    const shippingUnits = yield* ShippingUnitRepository
    const transfers = yield* TransferRepository

    const tasks = Effect.fnUntraced(function*(actor: Actor, query: TaskQuery) {
      const { limit, offset, ...filter } = query
      return (yield* picking.openTasks(actor.scope, filter, { limit, offset })).map((claim) => toTask(claim, timeZone))
    })

    const confirm = Effect.fnUntraced(function*(actor: Actor, taskId: number, request: ConfirmTask) {
      const seen = yield* picking.findOpenTask(actor.scope, taskId)
      if (Option.isNone(seen)) return yield* new TaskNotFound({ taskId })
      // Locks in the order the writers of waves and orders take them (wave, order, claim, content),
      // so a confirmation never deadlocks with a wave start, a wave delete or an order delete.
      yield* picking.lockWave(seen.value.wave_id)
      yield* orders.lock(seen.value.order_ref)
      const locked = yield* picking.lockOpenTask(taskId)
      if (Option.isNone(locked)) return yield* new TaskNotFound({ taskId })
      const task = locked.value
      const picked = request.qty ?? task.qty
      if (picked > task.qty) return yield* invalidField("qty", `must be at most the task's quantity, ${task.qty}`)
      const short = task.qty - picked
      // The settings matter only to a short pick: a whole one reads none of them.
      const settings = short > 0 ? yield* siteSettings.get(task.site_id) : undefined
      const reallocating = settings !== undefined && (request.reallocate ?? settings.reallocate_short_picks)
      // Re-allocation and the replenishment of a pick face take more of the SKU's stock: it is
      // locked with the task's content, by content id, before that content alone.
      const moreStock = reallocating ||
        (yield* replenishment.replenishesAfter(task.site_id, [{ sku_id: task.sku_id, loc_id: task.from_loc_id }]))
      const stockOfTask = moreStock ? yield* lockStockOfTask(waves, task) : []
      const content = yield* Effect.flatMap(
        inventory.lockContent(actor.scope, task.content_id),
        Option.match({
          onNone: () => Effect.dieMessage(`content ${task.content_id} of task ${taskId} is missing`),
          onSome: Effect.succeed
        })
      )
      const now = yield* Clock.currentTimeMillis
      const createdAt = new Date(now).toISOString()
      // Before the task closes: closing it with nothing picked would remove a claimset it leaves empty.
      const covered = reallocating
        ? yield* reallocate({ waves, inventory }, task, stockOfTask, short, formatDate(now, timeZone), createdAt)
        : 0
      if (!(yield* picking.closeTask(taskId, picked))) return yield* new TaskNotFound({ taskId })
      // What was picked and what was short both leave the content, and its allocation with them.
      yield* picking.takeAllocated(content.content_id, task.qty)
      // A pick tasked before its location's count was released is that count's in-flight change.
      yield* counts.addInFlight(content, -task.qty)
      const stock = {
        site_id: task.site_id,
        client_id: task.client_id,
        content_id: content.content_id,
        sku_id: content.sku_id,
        tag_id: content.tag_id
      }
      const ofTask = { order_id: task.order_id, line_id: task.line_id, created_at: createdAt }
      const entries: Array<Ledger.NewLedgerEntry> = []
      if (picked > 0) {
        entries.push(Ledger.entry("Pick", stock, {
          ...ofTask,
          qty: picked,
          from: content.loc_id,
          to: task.to_loc_id,
          final: task.final_loc_id,
          notes: `Task ${taskId}`
        }))
        yield* picking.addPicked(task.order_ref, task.line_id, picked)
      }
      if (short > 0) {
        const notes = `Short pick of task ${taskId}`
        entries.push(Ledger.entry("Lost", stock, {
          ...ofTask,
          qty: short,
          from: content.loc_id,
          notes,
          ...(request.reason_code == null ? {} : { reason_code: request.reason_code })
        }))
        yield* inventory.insertLostAndFound({
          site_id: content.site_id,
          client_id: content.client_id,
          content_id: content.content_id,
          sku_id: content.sku_id,
          loc_id: content.loc_id,
          tag_id: content.tag_id,
          qty: short,
          created_at: createdAt,
          created_by: actor.userId,
          notes
        })
      }
      yield* inventory.appendTransactions(entries)
      // With backorders on, what re-allocation did not cover ships later as a backorder order.
      const backordered = settings?.backorders === true ? short - covered : 0
      if (backordered > 0) yield* picking.addBackordered(task.order_ref, task.line_id, backordered)
      const next = progress(
        yield* picking.openTaskCounts({ orderRef: task.order_ref, claimsetId: task.claimset_id, waveId: task.wave_id })
      )
      // An order with nothing picked is Released again, whole: a new wave takes all of it, so none
      // of it stays backordered, whatever earlier short picks backordered.
      if (next.order === Status.Released) yield* picking.clearBackordered(task.order_ref)
      if (settings?.count_on_short_pick === true && wantsControlCount(request.reason_code ?? null)) {
        yield* openControlCount({ locations, counts: controlCounts }, actor, task, createdAt)
      }
      yield* waves.setOrderStatuses(new Map([[task.order_ref, next.order]]))
      yield* picking.setClaimsetStatus(task.claimset_id, next.claimset)
      yield* waves.setStatus(task.wave_id, next.wave)
      // A pick at a pick face lowers its level: replenish it in the same transaction (warehouse cycle §3.4 R4).
      yield* replenishment.afterChange(actor, content.site_id, [{ sku_id: content.sku_id, loc_id: content.loc_id }])
    }, atomically)

    const ship = Effect.fnUntraced(function*(actor: Actor, orderId: string) {
      const found = yield* orders.find(actor.scope, orderId)
      if (Option.isNone(found)) return yield* new OrderNotFound({ orderId })
      const ref = found.value.header.ref
      const status = yield* orders.lock(ref)
      if (Option.isNone(status)) return yield* new OrderNotFound({ orderId })
      if (status.value === Status.Shipped) {
        return yield* new OrderShipped({ orderId })
      }
      if ((yield* picking.openTasksOfOrder(ref)) > 0) {
        return yield* new OrderTasksOpen({ orderId })
      }
      const claims = yield* picking.pickedClaims(ref)
      if (claims.length === 0) {
        return yield* new OrderNothingPicked({ orderId })
      }
      // Ship by unit (spec §4 P5): the lines as they are under the order's lock, against its units.
      if ((yield* siteSettings.get(actor.scope.site_id)).pack_before_ship) {
        const locked = yield* orders.find(actor.scope, orderId)
        if (Option.isNone(locked)) return yield* new OrderNotFound({ orderId })
        const refused = shipGate(orderId, locked.value.lines, yield* shippingUnits.ofOrder(ref))
        if (Option.isSome(refused)) return yield* refused.value
      }
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      const toSite = found.value.header.to_site
      if (toSite === null) {
        yield* inventory.appendTransactions(claims.map((claim) =>
          Ledger.entry("Shipment", claim, {
            qty: claim.qty,
            from: claim.to_loc_id,
            order_id: claim.order_id,
            line_id: claim.line_id,
            notes: `Shipment of order ${orderId}`,
            created_at: createdAt
          })
        ))
      } else {
        // A transfer leaves as TransferOut and arrives at its destination as a pre-advice (spec §3 T2).
        yield* shipTransfer(actor, { ...found.value.header, to_site: toSite }, claims, createdAt).pipe(
          Effect.provideService(InventoryRepository, inventory),
          Effect.provideService(TransferRepository, transfers),
          Effect.provideService(OrderRepository, orders)
        )
      }
      yield* picking.shipLines(ref)
      yield* shippingUnits.shipOrder(ref)
      yield* waves.setOrderStatuses(new Map([[ref, Status.Shipped as StatusId]]))
      const shipped = yield* orders.find(actor.scope, orderId)
      if (Option.isNone(shipped)) return yield* new OrderNotFound({ orderId })
      const data = toOrder(shipped.value, timeZone)
      // A transfer's shipment is told to both of its sites, in place of `order_shipped`.
      if (toSite === null) {
        yield* events.publish({
          event_type: "order_shipped",
          site_id: actor.scope.site_id,
          client_id: shipped.value.header.client_id,
          data
        })
      } else {
        yield* events.publishAll([actor.scope.site_id, toSite].map((site_id) => ({
          event_type: "transfer_shipped" as const,
          site_id,
          client_id: null,
          data
        })))
      }
      if (shipped.value.lines.some((line) => line.qty_backordered > 0)) {
        yield* backorder(actor, shipped.value.header, createdAt)
      }
    }, atomically)

    /**
     * The backorder order of a shipped order whose short picks left some of it uncovered: a Released
     * copy named `<order_id>-B<n>`, where the order id is that of the first order of the chain, so
     * every backorder of an order, and of its backorders, is one of its own, numbered in turn.
     */
    const backorder = Effect.fnUntraced(function*(actor: Actor, header: OrderRow, createdAt: string) {
      const original = header.backorder_of ?? header.order_id
      for (let n = (yield* picking.backorderCount(actor.scope.site_id, original)) + 1;; n++) {
        // An id a client took for an order of its own is skipped.
        const ref = yield* picking.insertBackorder(header.ref, {
          order_id: `${original}-B${n}`,
          backorder_of: original,
          created_at: createdAt,
          created_by: actor.userId
        })
        if (Option.isNone(ref)) continue
        const [made] = yield* orders.findMany([ref.value])
        return yield* events.publish({
          event_type: "order_backordered",
          site_id: actor.scope.site_id,
          client_id: header.client_id,
          data: toOrder(made, timeZone)
        })
      }
    })

    return { tasks, confirm, ship } as const
  })
}) {}
