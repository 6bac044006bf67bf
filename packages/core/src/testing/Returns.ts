/**
 * The invariants of customer returns (spec §2, §5): per order line, what the returns that are not
 * Cancelled authorize never exceeds what shipped (R2); per return line, what is received never
 * exceeds what is authorized and is what its dispositions add up to (R3); each return's status is
 * the one its lines call for (R4); and the ledger's `Return` rows of each line bring in exactly
 * what it restocked and quarantined. Read from what the API shows: the order, its returns, and
 * the ledger.
 */
import type { OrderView, TransactionView } from "./Views.js"

/** A return as `GET /returns/:id` shows it, the fields the checker reads. */
export interface ReturnView {
  readonly return_id: string
  readonly order_id: string
  readonly status_id: number
  readonly lines: ReadonlyArray<{
    readonly line: number
    readonly order_line: number
    readonly qty_authorized: number
    readonly qty_received: number
    readonly qty_restocked: number
    readonly qty_quarantined: number
    readonly qty_scrapped: number
  }>
}

// The status a return's lines call for, when it is neither Cancelled nor Complete.
const statusOf = (lines: ReturnView["lines"]) =>
  lines.every((l) => l.qty_received >= l.qty_authorized) ? 3 : lines.some((l) => l.qty_received > 0) ? 2 : 1

/**
 * The violations of the returns of one order, each as one line: none when they hold. With the
 * ledger (`transactions`, at least every `Return` row of the order's SKUs), each return line's
 * `Return` rows must add up to what it restocked and quarantined.
 */
export const checkReturns = (
  order: OrderView,
  returns: ReadonlyArray<ReturnView>,
  transactions?: ReadonlyArray<TransactionView>
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const authorized = new Map<number, number>()
  const entered = new Map<string, number>()
  for (const t of transactions ?? []) {
    if (t.transaction_type === "Return") entered.set(t.notes ?? "", (entered.get(t.notes ?? "") ?? 0) + t.qty)
  }
  for (const rma of returns) {
    if (rma.order_id !== order.order_id) violations.push(`return ${rma.return_id} is of order ${rma.order_id}`)
    for (const line of rma.lines) {
      const at = `return ${rma.return_id} line ${line.line}`
      if (!order.lines.some((l) => l.line === line.order_line)) {
        violations.push(`${at}: order ${order.order_id} has no line ${line.order_line}`)
      }
      if (rma.status_id !== 21) {
        authorized.set(line.order_line, (authorized.get(line.order_line) ?? 0) + line.qty_authorized)
      }
      if (line.qty_received > line.qty_authorized) {
        violations.push(`${at}: ${line.qty_received} received, ${line.qty_authorized} authorized`)
      }
      const split = line.qty_restocked + line.qty_quarantined + line.qty_scrapped
      if (split !== line.qty_received) violations.push(`${at}: ${line.qty_received} received, ${split} disposed of`)
      if (transactions !== undefined) {
        const ledger = entered.get(`Return ${rma.return_id} line ${line.line}`) ?? 0
        if (ledger !== line.qty_restocked + line.qty_quarantined) {
          violations.push(
            `${at}: ${line.qty_restocked} restocked and ${line.qty_quarantined} quarantined, Return rows of ${ledger}`
          )
        }
      }
    }
    const received = rma.lines.some((l) => l.qty_received > 0)
    const expected = rma.status_id === 21
      ? (received ? "nothing received" : 21)
      : rma.status_id === 20
      ? (rma.lines.every((l) => l.qty_received === l.qty_authorized) && received ? 20 : "all received as authorized")
      : statusOf(rma.lines)
    if (expected !== rma.status_id) {
      violations.push(`return ${rma.return_id} is status ${rma.status_id}, expected ${expected}`)
    }
  }
  for (const line of order.lines) {
    const sum = authorized.get(line.line) ?? 0
    if (sum > line.qty_shipped) {
      violations.push(`order ${order.order_id} line ${line.line}: ${sum} authorized, ${line.qty_shipped} shipped`)
    }
  }
  return violations
}
