/**
 * The weights of shipping units (spec §4 P4): a unit weighs its tare plus each line's quantity
 * times its SKU's `each_weight` (none: 0); a pallet weighs its own and its cartons' too.
 */

/** What a unit's weight is made of. */
export interface Weighable {
  readonly id: number
  readonly parent_id: number | null
  readonly tare_weight: number
  readonly lines: ReadonlyArray<{ readonly qty: number; readonly each_weight: number | null }>
}

// Sums of decimal weights pick up binary noise (0.1 + 0.2): six decimals is finer than any scale weighs.
const rounded = (weight: number) => Math.round(weight * 1e6) / 1e6

/** The weight of every unit of one order, by id; a carton counts in its parent's weight. */
export const weighUnits = (units: ReadonlyArray<Weighable>): ReadonlyMap<number, number> => {
  const own = new Map<number, number>()
  for (const unit of units) {
    own.set(unit.id, unit.lines.reduce((sum, line) => sum + line.qty * (line.each_weight ?? 0), unit.tare_weight))
  }
  const weights = new Map(own)
  for (const unit of units) {
    if (unit.parent_id !== null && weights.has(unit.parent_id)) {
      weights.set(unit.parent_id, weights.get(unit.parent_id)! + own.get(unit.id)!)
    }
  }
  for (const [id, weight] of weights) weights.set(id, rounded(weight))
  return weights
}
