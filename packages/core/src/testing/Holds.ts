/**
 * The invariants of holds and recalls (spec §1, §5): allocation never takes held stock, and a lot's
 * trace is complete: its shipped rows are exactly the lot's `Shipment` rows, its received rows its
 * `Receipt` rows, and what came in is what is on hand, picked (shipped or not), lost or adjusted out.
 */
import type { Trace } from "../holds/Trace.js"

/** The claims (pick tasks) a wave start made, with the contents they take from. */
export interface AllocatedView {
  readonly id: number
  readonly content_id: number
}

/** The violations of H1 at a wave start: a claim on a content an Active hold covered as it started. */
export const checkAllocationAvoidsHolds = (
  heldAtStart: ReadonlySet<number>,
  claims: ReadonlyArray<AllocatedView>
): ReadonlyArray<string> =>
  claims.filter((claim) => heldAtStart.has(claim.content_id)).map((claim) =>
    `claim ${claim.id} allocates content ${claim.content_id}, which a hold covered`
  )

/** A ledger row of one of the lot's contents, the fields the checker reads. */
export interface LotLedgerRow {
  readonly transaction_type: string
  readonly qty: number
  readonly order_id: string | null
  readonly line_id: number | null
}

const sum = (rows: ReadonlyArray<{ readonly qty: number }>) => rows.reduce((total, row) => total + row.qty, 0)

/**
 * The violations of a lot's trace against the ledger rows of its contents (every one, contents now
 * empty included), each as one line: none when the recall is complete.
 */
export const checkTrace = (trace: Trace, ledger: ReadonlyArray<LotLedgerRow>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const key = (row: { readonly order_id: string | null; readonly line: number | null; readonly qty: number }) =>
    JSON.stringify([row.order_id, row.line, row.qty])
  const shipments = ledger.filter((row) => row.transaction_type === "Shipment")
  const expected = shipments.map((row) => key({ order_id: row.order_id, line: row.line_id, qty: row.qty })).sort()
  const shown = trace.shipped.map(key).sort()
  if (JSON.stringify(expected) !== JSON.stringify(shown)) {
    problems.push(`shipped rows ${JSON.stringify(shown)} are not the lot's shipments ${JSON.stringify(expected)}`)
  }
  const receipts = ledger.filter((row) => row.transaction_type === "Receipt")
  if (sum(receipts) !== sum(trace.received) || receipts.length !== trace.received.length) {
    problems.push(`received ${sum(trace.received)} in ${trace.received.length} rows, the ledger ${sum(receipts)}`)
  }
  const signed = (type: string) => ledger.filter((row) => row.transaction_type === type).map((row) => row.qty)
  const adjustments = [...signed("Adjustment"), ...signed("Count")]
  const adjustedIn = adjustments.filter((qty) => qty > 0).reduce((a, b) => a + b, 0)
  const adjustedOut = -adjustments.filter((qty) => qty < 0).reduce((a, b) => a + b, 0)
  const picked = sum(ledger.filter((row) => row.transaction_type === "Pick"))
  const lost = sum(ledger.filter((row) => row.transaction_type === "Lost"))
  const pickedNotShipped = picked - sum(trace.shipped)
  // received + in = on hand + shipped + picked and not yet shipped + lost + adjusted out (per lot).
  const came = sum(trace.received) + adjustedIn
  const went = sum(trace.on_hand) + sum(trace.shipped) + pickedNotShipped + lost + adjustedOut
  if (came !== went) {
    problems.push(
      `received ${sum(trace.received)} + adjusted in ${adjustedIn} ≠ on hand ${sum(trace.on_hand)} + shipped ${
        sum(trace.shipped)
      } + picked not shipped ${pickedNotShipped} + lost ${lost} + adjusted out ${adjustedOut}`
    )
  }
  return problems
}
