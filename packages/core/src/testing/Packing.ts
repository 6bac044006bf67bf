/**
 * The invariants of packing (spec §4, §5): packed never exceeds picked per order line (P2), every
 * SSCC has a valid check digit and is the SSCC of one unit only (P1), a carton's parent is a pallet
 * of its order (P4), and a shipped order's units are all Shipped and all on its record (P5). Read
 * from what the API shows: the order's record and its shipping units.
 */
import { isValidSscc } from "../packing/Sscc.js"
import type { OrderView } from "./Views.js"

/** A shipping unit as `GET /shipping-units/:id` shows it, the fields the checker reads. */
export interface ShippingUnitView {
  readonly id: number
  readonly sscc: string
  readonly order_id: string
  readonly unit_type: string
  readonly parent_id: number | null
  readonly status_id: number
  readonly lines: ReadonlyArray<{ readonly order_line: number; readonly qty: number }>
}

/** An order's record with its shipping units, as `GET /orders/:id` shows it. */
export interface PackedOrderView extends OrderView {
  readonly shipping_units: ReadonlyArray<{ readonly sscc: string; readonly parent_sscc: string | null }>
}

/** The violations of packing of one order, each as one line: none when its packing holds. */
export const checkPacking = (
  order: PackedOrderView,
  units: ReadonlyArray<ShippingUnitView>
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const packed = new Map<number, number>()
  const byId = new Map(units.map((unit) => [unit.id, unit]))
  const ssccs = new Set<string>()
  for (const unit of units) {
    for (const line of unit.lines) packed.set(line.order_line, (packed.get(line.order_line) ?? 0) + line.qty)
    if (!isValidSscc(unit.sscc)) violations.push(`unit ${unit.id}: SSCC ${unit.sscc} has no valid check digit`)
    if (ssccs.has(unit.sscc)) violations.push(`unit ${unit.id}: SSCC ${unit.sscc} is another unit's too`)
    ssccs.add(unit.sscc)
    if (unit.order_id !== order.order_id) violations.push(`unit ${unit.id} is of order ${unit.order_id}`)
    if (unit.parent_id !== null) {
      const parent = byId.get(unit.parent_id)
      if (unit.unit_type !== "Carton" || parent?.unit_type !== "Pallet") {
        violations.push(`unit ${unit.id}: a ${unit.unit_type} on unit ${unit.parent_id}, not a carton on a pallet`)
      }
    }
    if (order.order_status.id === 19 && unit.status_id !== 19) {
      violations.push(`unit ${unit.id} of shipped order ${order.order_id} is status ${unit.status_id}`)
    }
  }
  for (const line of order.lines) {
    const inUnits = packed.get(line.line) ?? 0
    if (inUnits > line.qty_picked) {
      violations.push(`order ${order.order_id} line ${line.line}: ${inUnits} packed, ${line.qty_picked} picked`)
    }
  }
  const shown = order.shipping_units.map((unit) => `${unit.sscc}<${unit.parent_sscc}`).join(",")
  const stored = units.map((unit) =>
    `${unit.sscc}<${unit.parent_id === null ? null : byId.get(unit.parent_id)?.sscc ?? null}`
  ).join(",")
  if (shown !== stored) violations.push(`order ${order.order_id} shows units ${shown}, its units are ${stored}`)
  return violations
}
