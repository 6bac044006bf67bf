/**
 * Ship by unit (spec §4 P5): with the site's `pack_before_ship` on, an order ships only once every
 * unit it picked is in a shipping unit and every one of its units is closed.
 */
import { Option } from "effect"
import { Status } from "../shared/Status.js"
import { OrderNotPacked, OrderUnitsOpen } from "./Errors.js"

/** Why the order may not ship yet, if it may not: what it picked and not packed, else its open units. */
export const shipGate = (
  orderId: string,
  lines: ReadonlyArray<{ readonly line: number; readonly qty_picked: number }>,
  units: ReadonlyArray<
    { readonly status_id: number; readonly lines: ReadonlyArray<{ readonly order_line: number; readonly qty: number }> }
  >
): Option.Option<OrderNotPacked | OrderUnitsOpen> => {
  const packed = new Map<number, number>()
  for (const unit of units) {
    for (const line of unit.lines) packed.set(line.order_line, (packed.get(line.order_line) ?? 0) + line.qty)
  }
  const notPacked = lines.reduce((sum, line) => sum + Math.max(0, line.qty_picked - (packed.get(line.line) ?? 0)), 0)
  if (notPacked > 0) return Option.some(new OrderNotPacked({ orderId, units: notPacked }))
  const open = units.filter((unit) => unit.status_id !== Status.Complete).length
  return open > 0 ? Option.some(new OrderUnitsOpen({ orderId, units: open })) : Option.none()
}
