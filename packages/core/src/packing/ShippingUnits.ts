/**
 * Packing into shipping units (spec §4): the `ShippingUnits` service holding every rule about
 * cartons and pallets. Packing never changes stock: it says which picked goods are in which unit.
 * Every write locks the order first (as confirmations and shipping do), then the order lines it
 * packs, so packed never exceeds picked (P2) however many processes pack the same lines.
 */
import { Clock, Effect, Option } from "effect"
import { SiteSettingsRepository } from "../admin/SiteSettingsRepository.js"
import { OrderNotFound } from "../orders/Errors.js"
import { OrderRepository } from "../orders/OrderRepository.js"
import { describeStatus } from "../orders/OrderView.js"
import { invalidField } from "../shared/Errors.js"
import { formatDateTime, TimeZone } from "../shared/Formats.js"
import type { ClientId, SiteId } from "../shared/Ids.js"
import { Status } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import {
  CompanyPrefixMissing,
  OrderPackingClosed,
  PackedExceedsPicked,
  ShippingUnitCarriesOpen,
  ShippingUnitEmpty,
  ShippingUnitLineNotFound,
  ShippingUnitNotFound,
  ShippingUnitNotOpen,
  ShippingUnitShipped,
  SsccSerialsExhausted,
  SsccTaken
} from "./Errors.js"
import type {
  NewShippingUnit,
  NewShippingUnitLine,
  PackingList,
  ShippingUnit,
  ShippingUnitQuery,
  ShippingUnitUpdate
} from "./ShippingUnit.js"
import { type ShippingUnitFields, ShippingUnitRepository, type ShippingUnitRow } from "./ShippingUnitRepository.js"
import { makeSscc, maxSerial } from "./Sscc.js"
import { weighUnits } from "./Weights.js"

/** A unit as the API shows it. */
export const toShippingUnit = (row: ShippingUnitRow, timeZone: string): ShippingUnit => ({
  id: row.id,
  sscc: row.sscc,
  order_id: row.order_id,
  unit_type: row.unit_type,
  parent_id: row.parent_id,
  status: describeStatus(row.status_id),
  status_id: row.status_id,
  tare_weight: row.tare_weight,
  weight: row.weight,
  length: row.length,
  width: row.width,
  height: row.height,
  tracking_number: row.tracking_number,
  created_by: row.created_by,
  creation_datetime: formatDateTime(row.created_at, timeZone),
  lines: row.lines.map((line) => ({ order_line: line.order_line, sku_id: line.sku_id, qty: line.qty }))
})

/** The packing list of an order's units (spec §4 P6). */
export const toPackingList = (orderId: string, units: ReadonlyArray<ShippingUnitRow>): PackingList => {
  const ssccs = new Map(units.map((unit) => [unit.id, unit.sscc]))
  return {
    order_id: orderId,
    total_weight: Math.round(
      units.reduce((sum, unit) => (unit.parent_id === null ? sum + unit.weight : sum), 0) * 1e6
    ) / 1e6,
    units: units.map((unit) => ({
      sscc: unit.sscc,
      unit_type: unit.unit_type,
      parent_sscc: unit.parent_id === null ? null : ssccs.get(unit.parent_id) ?? null,
      status: describeStatus(unit.status_id),
      tare_weight: unit.tare_weight,
      weight: unit.weight,
      length: unit.length,
      width: unit.width,
      height: unit.height,
      tracking_number: unit.tracking_number,
      lines: unit.lines.map((line) => ({ order_line: line.order_line, sku_id: line.sku_id, qty: line.qty }))
    }))
  }
}

// The lines of a body with one entry per order line, their quantities summed, in line order.
const mergeLines = (lines: ReadonlyArray<NewShippingUnitLine>) => {
  const merged = new Map<number, number>()
  for (const line of lines) merged.set(line.order_line, (merged.get(line.order_line) ?? 0) + line.qty)
  return [...merged].sort(([a], [b]) => a - b).map(([order_line, qty]) => ({ order_line, qty }))
}

export class ShippingUnits extends Effect.Service<ShippingUnits>()("@wms/core/ShippingUnits", {
  effect: Effect.gen(function*() {
    const units = yield* ShippingUnitRepository
    const orders = yield* OrderRepository
    const settings = yield* SiteSettingsRepository
    const { atomically } = yield* Transactor

    const findUnit = (actor: Actor, unitId: number) =>
      Effect.flatMap(
        units.find(actor.scope, unitId),
        Option.match({ onNone: () => Effect.fail(new ShippingUnitNotFound({ unitId })), onSome: Effect.succeed })
      )

    // The order's lock, taken before any of its units or lines is read for a write: every writer of
    // an order's units (and shipping, which makes them Shipped) queues on it.
    const lockOrder = Effect.fnUntraced(function*(orderRef: number, orderId: string) {
      const status = yield* orders.lock(orderRef)
      if (Option.isNone(status)) return yield* new OrderNotFound({ orderId })
      if (status.value === Status.Shipped) return yield* new OrderPackingClosed({ orderId })
    })

    // A unit read again under its order's lock, which no other writer of it holds now. Its own
    // status tells whether it shipped: shipping makes every unit of the order Shipped.
    const lockedUnit = Effect.fnUntraced(function*(actor: Actor, unitId: number) {
      const seen = yield* findUnit(actor, unitId)
      yield* orders.lock(seen.order_ref)
      return yield* findUnit(actor, unitId)
    })

    const requireOpen = (unit: ShippingUnitRow) =>
      unit.status_id === Status.Open
        ? Effect.void
        : Effect.fail(new ShippingUnitNotOpen({ unitId: unit.id, status: describeStatus(unit.status_id) }))

    const requireNotShipped = (unit: ShippingUnitRow) =>
      unit.status_id === Status.Shipped ? Effect.fail(new ShippingUnitShipped({ unitId: unit.id })) : Effect.void

    /**
     * Packs the lines into the unit: under the lock of the order lines, each must exist and keep
     * what its units hold within what was picked of it (P2). `pathOf(i)` names line i in the body.
     */
    const pack = Effect.fnUntraced(function*(
      unitId: number,
      order: { readonly ref: number; readonly order_id: string },
      lines: ReadonlyArray<NewShippingUnitLine>,
      pathOf: (index: number) => string
    ) {
      if (lines.length === 0) return
      const merged = mergeLines(lines)
      const locked = new Map(
        (yield* units.lockLines(order.ref, merged.map((line) => line.order_line))).map((line) => [line.line, line])
      )
      const missing = lines.findIndex((line) => !locked.has(line.order_line))
      if (missing >= 0) {
        return yield* invalidField(pathOf(missing), `order ${order.order_id} has no line ${lines[missing].order_line}`)
      }
      for (const { order_line, qty } of merged) {
        const line = locked.get(order_line)!
        if (line.qty_packed + qty > line.qty_picked) {
          return yield* new PackedExceedsPicked({
            orderId: order.order_id,
            line: order_line,
            picked: line.qty_picked,
            packed: line.qty_packed,
            qty
          })
        }
      }
      for (const { order_line, qty } of merged) {
        yield* units.addLine(unitId, { order_line, sku_id: locked.get(order_line)!.sku_id, qty })
      }
    })

    // The stored weights of the order's units, made again after a change of what they hold (P4).
    const reweigh = Effect.fnUntraced(function*(orderRef: number) {
      const ofOrder = yield* units.ofOrder(orderRef)
      const weights = weighUnits(ofOrder)
      const changed = new Map(
        ofOrder.filter((unit) => weights.get(unit.id) !== unit.weight).map((unit) => [unit.id, weights.get(unit.id)!])
      )
      if (changed.size > 0) yield* units.setWeights(changed)
    })

    // The next SSCC of the site's counter, past any a client took as its own (P1).
    const insertWithSerial = Effect.fnUntraced(function*(
      siteId: SiteId,
      unit: Omit<Parameters<typeof units.insert>[0], "sscc">
    ) {
      const { gs1_company_prefix: prefix, sscc_extension_digit: extension } = yield* settings.get(siteId)
      if (prefix === null) return yield* new CompanyPrefixMissing({ siteId })
      for (;;) {
        const serial = yield* units.nextSerial(siteId)
        if (serial > maxSerial(prefix)) {
          return yield* new SsccSerialsExhausted({ siteId, companyPrefix: prefix })
        }
        const id = yield* units.insert({ ...unit, sscc: makeSscc(extension, prefix, serial) })
        if (Option.isSome(id)) return id.value
      }
    })

    const parentOf = Effect.fnUntraced(function*(
      actor: Actor,
      input: NewShippingUnit,
      orderRef: number
    ) {
      const parentId = input.parent_id ?? null
      if (parentId === null) return null
      if (input.unit_type === "Pallet") return yield* invalidField("parent_id", "a pallet has no parent")
      const parent = yield* units.find(actor.scope, parentId)
      if (Option.isNone(parent)) return yield* invalidField("parent_id", `shipping unit ${parentId} does not exist`)
      if (parent.value.unit_type !== "Pallet") {
        return yield* invalidField("parent_id", `shipping unit ${parentId} is not a pallet`)
      }
      if (parent.value.order_ref !== orderRef) {
        return yield* invalidField(
          "parent_id",
          `shipping unit ${parentId} is of order ${parent.value.order_id}, not ${input.order_id}`
        )
      }
      yield* requireOpen(parent.value)
      return parentId
    })

    const list = Effect.fnUntraced(function*(actor: Actor, query: ShippingUnitQuery) {
      const { limit, offset, ...filter } = query
      const timeZone = yield* TimeZone
      return (yield* units.list(actor.scope, filter, { limit, offset })).map((row) => toShippingUnit(row, timeZone))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, unitId: number) {
      return toShippingUnit(yield* findUnit(actor, unitId), yield* TimeZone)
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewShippingUnit) {
      const found = yield* orders.find(actor.scope, input.order_id)
      if (Option.isNone(found)) return yield* new OrderNotFound({ orderId: input.order_id })
      const { header } = found.value
      yield* lockOrder(header.ref, header.order_id)
      const parentId = yield* parentOf(actor, input, header.ref)
      const unit = {
        // The unit belongs to its order's owner, whoever of the site packs it.
        owner: { site_id: actor.scope.site_id, client_id: header.client_id as ClientId | null },
        order_ref: header.ref,
        unit_type: input.unit_type,
        parent_id: parentId,
        tare_weight: input.tare_weight ?? 0,
        created_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
        created_by: actor.userId
      }
      let unitId: number
      if (input.sscc != null) {
        const id = yield* units.insert({ ...unit, sscc: input.sscc })
        if (Option.isNone(id)) return yield* new SsccTaken({ sscc: input.sscc })
        unitId = id.value
      } else {
        unitId = yield* insertWithSerial(actor.scope.site_id, unit)
      }
      yield* pack(unitId, header, input.lines ?? [], (i) => `lines.${i}.order_line`)
      yield* reweigh(header.ref)
      return yield* get(actor, unitId)
    }, atomically)

    const addLine = Effect.fnUntraced(function*(actor: Actor, unitId: number, input: NewShippingUnitLine) {
      const unit = yield* lockedUnit(actor, unitId)
      yield* requireOpen(unit)
      yield* pack(unitId, { ref: unit.order_ref, order_id: unit.order_id }, [input], () => "order_line")
      yield* reweigh(unit.order_ref)
    }, atomically)

    const removeLine = Effect.fnUntraced(function*(actor: Actor, unitId: number, orderLine: number) {
      const unit = yield* lockedUnit(actor, unitId)
      yield* requireOpen(unit)
      if (!(yield* units.removeLine(unitId, orderLine))) {
        return yield* new ShippingUnitLineNotFound({ unitId, orderLine })
      }
      yield* reweigh(unit.order_ref)
    }, atomically)

    const close = Effect.fnUntraced(function*(actor: Actor, unitId: number) {
      const unit = yield* lockedUnit(actor, unitId)
      yield* requireOpen(unit)
      const cartons = (yield* units.ofOrder(unit.order_ref)).filter((other) => other.parent_id === unitId)
      if (unit.lines.length === 0 && cartons.length === 0) return yield* new ShippingUnitEmpty({ unitId })
      const open = cartons.find((carton) => carton.status_id !== Status.Complete)
      if (open !== undefined) return yield* new ShippingUnitCarriesOpen({ unitId, cartonId: open.id })
      yield* units.setStatus(unitId, Status.Complete)
    }, atomically)

    const update = Effect.fnUntraced(function*(actor: Actor, unitId: number, input: ShippingUnitUpdate) {
      const unit = yield* lockedUnit(actor, unitId)
      yield* requireNotShipped(unit)
      const changes: { -readonly [K in keyof ShippingUnitFields]?: ShippingUnitFields[K] } = {}
      if (input.tracking_number !== undefined) changes.tracking_number = input.tracking_number
      if (input.length !== undefined) changes.length = input.length
      if (input.width !== undefined) changes.width = input.width
      if (input.height !== undefined) changes.height = input.height
      if (Object.keys(changes).length > 0) yield* units.update(unitId, changes)
    }, atomically)

    // Unpacking frees the unit's lines for other units; a pallet's cartons stay, loose.
    const remove = Effect.fnUntraced(function*(actor: Actor, unitId: number) {
      const unit = yield* lockedUnit(actor, unitId)
      yield* requireNotShipped(unit)
      // A carton leaves its pallet only while the pallet is open.
      if (unit.parent_id !== null) {
        const parent = (yield* units.ofOrder(unit.order_ref)).find((other) => other.id === unit.parent_id)
        if (parent !== undefined) yield* requireOpen(parent)
      }
      yield* units.remove(unitId)
      yield* reweigh(unit.order_ref)
    }, atomically)

    const packingList = Effect.fnUntraced(function*(actor: Actor, orderId: string) {
      const found = yield* orders.find(actor.scope, orderId)
      if (Option.isNone(found)) return yield* new OrderNotFound({ orderId })
      return toPackingList(found.value.header.order_id, yield* units.ofOrder(found.value.header.ref))
    })

    return {
      listShippingUnits: list,
      getShippingUnit: get,
      createShippingUnit: create,
      addShippingUnitLine: addLine,
      deleteShippingUnitLine: removeLine,
      closeShippingUnit: close,
      updateShippingUnit: update,
      deleteShippingUnit: remove,
      getPackingList: packingList
    } as const
  })
}) {}
