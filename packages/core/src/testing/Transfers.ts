/**
 * The invariant of transfers between sites (spec §5, "Transfers conserve stock"): over the two
 * sites, for every SKU and lot (its tag and expiry), the stock on hand before any transfer equals
 * the stock on hand after, plus what is in transit, plus what short-closes wrote off. Read from
 * what the API shows: the contents of both sites (`GET /inventory/overview`) and the lines of the
 * transfers' pre-advices (`GET /preadvices/:id` at the destination).
 */

/** Stock of one lot on hand: a content as the overview shows it, the fields the checker reads. */
export interface LotOnHand {
  readonly sku_id: string
  readonly tag_id: string
  readonly expiry_date: string | null
  readonly qty: number
}

/** A transfer's pre-advice line as `GET /preadvices/:id` shows it, the fields the checker reads. */
export interface TransferLineView {
  readonly sku_id: string
  readonly tag_id?: string | undefined
  readonly expiry_date?: string | null | undefined
  readonly qty: number
  readonly qty_received: number
  readonly qty_lost?: number | undefined
}

const lotOf = (
  stock: {
    readonly sku_id: string
    readonly tag_id?: string | undefined
    readonly expiry_date?: string | null | undefined
  }
) => `${stock.sku_id} lot ${stock.tag_id ?? "?"} expiring ${stock.expiry_date ?? "never"}`

const add = (totals: Map<string, number>, lot: string, qty: number) => totals.set(lot, (totals.get(lot) ?? 0) + qty)

/**
 * The violations of conservation across two sites, each as one line: none when, for every SKU and
 * lot, `before` = `after` + in transit + written off. `before` and `after` are the contents of both
 * sites; `lines` every line of every transfer shipped in between (in transit: `qty − qty_received −
 * qty_lost`). Also a line received or written off beyond what it shipped, or lost without a close.
 * Receipts must have kept the shipped tag and expiry, as they do unless they name others.
 */
export const checkTransferConservation = (
  before: ReadonlyArray<LotOnHand>,
  after: ReadonlyArray<LotOnHand>,
  lines: ReadonlyArray<TransferLineView>
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const was = new Map<string, number>()
  const is = new Map<string, number>()
  for (const content of before) add(was, lotOf(content), content.qty)
  for (const content of after) add(is, lotOf(content), content.qty)
  for (const line of lines) {
    const lost = line.qty_lost ?? 0
    const inTransit = line.qty - line.qty_received - lost
    if (inTransit < 0 || lost < 0) {
      violations.push(`${lotOf(line)}: ${line.qty} shipped, ${line.qty_received} received and ${lost} written off`)
    }
    add(is, lotOf(line), inTransit + lost)
  }
  for (const lot of new Set([...was.keys(), ...is.keys()])) {
    const then = was.get(lot) ?? 0
    const now = is.get(lot) ?? 0
    if (then !== now) {
      violations.push(`${lot}: ${then} on hand before, ${now} on hand, in transit and written off after`)
    }
  }
  return violations
}
