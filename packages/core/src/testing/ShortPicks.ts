/**
 * The invariants of short picks with re-allocation and backorders (warehouse cycle 3.6): demand
 * conserved per order line and across its backorders, re-allocation by FEFO, and a short pick that
 * changes stock only by its loss.
 */
import { checkFefo } from "./Checkers.js"
import type { ClaimView, LocationStatusView, OrderView, PlacedContentView, TransactionView } from "./Views.js"

/** A claim with the order line it serves, as `GET /waves/:id/claims` shows it. */
export interface LineClaimView extends ClaimView {
  readonly id: number
  readonly order_id: string
  readonly line_id: number
}

/**
 * P-S1, demand conservation. No order line holds more picked, open claims and backordered than it
 * asks for (`qty = qty_picked + open claims + qty_backordered + unallocated`, unallocated never
 * negative), nor ships more than was picked; and every unit a shipped order backordered is on
 * exactly one line of a backorder of the first order of its chain, no more, no less.
 */
export const checkDemand = (
  orders: ReadonlyArray<OrderView>,
  claims: ReadonlyArray<LineClaimView>
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const open = new Map<string, number>()
  for (const claim of claims) {
    if (claim.status !== "allocated") continue
    const key = `${claim.order_id}/${claim.line_id}`
    open.set(key, (open.get(key) ?? 0) + claim.qty)
  }
  const backordered = new Map<string, number>()
  const onBackorders = new Map<string, number>()
  for (const order of orders) {
    const first = order.backorder_of ?? order.order_id
    for (const line of order.lines) {
      const claimed = open.get(`${order.order_id}/${line.line}`) ?? 0
      const lineBackordered = line.qty_backordered ?? 0
      if (line.qty_picked + claimed + lineBackordered > line.qty || line.qty_shipped > line.qty_picked) {
        violations.push(
          `order ${order.order_id} line ${line.line} asks ${line.qty} but holds ${line.qty_picked} picked, ` +
            `${claimed} claimed and ${lineBackordered} backordered (${line.qty_shipped} shipped)`
        )
      }
      const key = `${first}/${line.line}`
      if (order.order_status.id === 19) backordered.set(key, (backordered.get(key) ?? 0) + lineBackordered)
      if (order.backorder_of !== undefined) onBackorders.set(key, (onBackorders.get(key) ?? 0) + line.qty)
    }
  }
  for (const key of new Set([...backordered.keys(), ...onBackorders.keys()])) {
    if ((backordered.get(key) ?? 0) !== (onBackorders.get(key) ?? 0)) {
      violations.push(
        `line ${key}: shipped orders backordered ${backordered.get(key) ?? 0}, ` +
          `its backorders hold ${onBackorders.get(key) ?? 0}`
      )
    }
  }
  return violations
}

/** What one short pick changed: the site before and after it, and the task it shorted. */
export interface ShortPickChange {
  readonly before: {
    readonly claims: ReadonlyArray<LineClaimView>
    readonly transactions: ReadonlyArray<TransactionView & { readonly id: number }>
  }
  readonly after: {
    readonly contents: ReadonlyArray<PlacedContentView>
    readonly claims: ReadonlyArray<LineClaimView>
    readonly transactions: ReadonlyArray<TransactionView & { readonly id: number }>
    readonly locations: ReadonlyArray<LocationStatusView>
  }
  readonly taskId: number
  readonly today: string
}

/** The ledger types a short pick may write: its pick and loss, re-allocation, and a face's replenishment. */
const shortPickTypes = new Set(["Pick", "Lost", "Allocate", "Task"])

/**
 * P-S2 and P-S4 over one short pick: the claims it made serve the shorted task's order line and
 * take stock by FEFO among what it could take (the shorted content left out), and it wrote no
 * ledger row but its Pick, its Lost, the Allocate rows of its claims and the Task rows of a
 * replenishment it triggered, so `Lost` is the only change of stock it made.
 */
export const checkShortPick = ({ after, before, taskId, today }: ShortPickChange): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const shorted = before.claims.find((claim) => claim.id === taskId)
  if (shorted === undefined) return [`task ${taskId} was not among the claims before its short pick`]
  const known = new Set(before.claims.map((claim) => claim.id))
  const made = after.claims.filter((claim) => !known.has(claim.id))
  for (const claim of made) {
    if (claim.order_id !== shorted.order_id || claim.line_id !== shorted.line_id) {
      violations.push(`short pick of task ${taskId} claimed for ${claim.order_id} line ${claim.line_id}`)
    }
  }
  violations.push(...checkFefo(
    after.contents.filter((content) => content.content_id !== shorted.content_id),
    made,
    today,
    after.locations
  ))
  const seen = new Set(before.transactions.map((row) => row.id))
  for (const row of after.transactions) {
    if (!seen.has(row.id) && !shortPickTypes.has(row.transaction_type)) {
      violations.push(`short pick of task ${taskId} wrote a transaction of type ${row.transaction_type}`)
    }
  }
  const allocated = after.transactions.filter((row) => !seen.has(row.id) && row.transaction_type === "Allocate")
    .reduce((sum, row) => sum + row.qty, 0)
  const claimed = made.reduce((sum, claim) => sum + claim.qty, 0)
  if (allocated !== claimed) {
    violations.push(`short pick of task ${taskId} wrote Allocate rows of ${allocated} for claims of ${claimed}`)
  }
  return violations
}
