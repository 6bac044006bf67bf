/**
 * The invariants of holds and recalls (spec §1, §5): allocation never takes held stock, and a lot's
 * trace is complete: its shipped rows are exactly the lot's `Shipment` and `TransferOut` rows, its
 * received rows its `Receipt`, `Return` and `TransferIn` rows, and what came in is what is on hand,
 * picked (shipped or not), lost or adjusted out.
 */
import { type Trace, TraceReceivedTypes, TraceShippedTypes } from "../holds/Trace.js"

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
  readonly content_id: number
  readonly qty: number
  readonly order_id: string | null
  readonly line_id: number | null
}

const sum = (rows: ReadonlyArray<{ readonly qty: number }>) => rows.reduce((total, row) => total + row.qty, 0)

const ofTypes = (ledger: ReadonlyArray<LotLedgerRow>, types: ReadonlyArray<string>) =>
  ledger.filter((row) => types.includes(row.transaction_type))

/** The rows as sorted keys, to compare as multisets. */
const keys = <A>(rows: ReadonlyArray<A>, key: (row: A) => ReadonlyArray<unknown>) =>
  JSON.stringify(rows.map((row) => JSON.stringify(key(row))).sort())

/**
 * The violations of a lot's trace against the ledger rows of its contents (every one, contents now
 * empty included), each as one line: none when the recall is complete. Its shipped rows must be
 * the lot's `Shipment` and `TransferOut` rows, its received rows its `Receipt`, `Return` and
 * `TransferIn` rows, and what came in (received, and adjusted or counted in) what is on hand,
 * shipped, picked and not yet shipped, lost at a short pick, or adjusted or counted out (scrap,
 * count differences). Movements between the lot's contents change none of these.
 */
export const checkTrace = (trace: Trace, ledger: ReadonlyArray<LotLedgerRow>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const shipments = ofTypes(ledger, TraceShippedTypes)
  const expectedShipped = keys(shipments, (row) => [row.transaction_type, row.order_id, row.line_id, row.qty])
  const shownShipped = keys(trace.shipped, (row) => [row.transaction_type, row.order_id, row.line, row.qty])
  if (expectedShipped !== shownShipped) {
    problems.push(`shipped rows ${shownShipped} are not the lot's shipments ${expectedShipped}`)
  }
  const receipts = ofTypes(ledger, TraceReceivedTypes)
  const expectedReceived = keys(receipts, (row) => [row.transaction_type, row.content_id, row.qty])
  const shownReceived = keys(trace.received, (row) => [row.transaction_type, row.content_id, row.qty])
  if (expectedReceived !== shownReceived) {
    problems.push(`received rows ${shownReceived} are not the lot's receipts ${expectedReceived}`)
  }
  const adjustments = ofTypes(ledger, ["Adjustment", "Count"]).map((row) => row.qty)
  const adjustedIn = adjustments.filter((qty) => qty > 0).reduce((a, b) => a + b, 0)
  const adjustedOut = -adjustments.filter((qty) => qty < 0).reduce((a, b) => a + b, 0)
  const picked = sum(ofTypes(ledger, ["Pick"]))
  const lost = sum(ofTypes(ledger, ["Lost"]))
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
