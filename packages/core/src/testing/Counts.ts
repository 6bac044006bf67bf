/**
 * The invariant checkers of cycle counts, pure: the freeze of a counted location, the ledger of an
 * applied count, and its approval threshold. Each reads records as an admin sees them through the
 * API (`Views.ts`, or hand-made ones of the same shape) and returns one line per violation.
 */
import type { ClaimView, CountView, MovementTaskView, PlacedContentView, TransactionView } from "./Views.js"

/** Counting (22) and Pending Approval (23): a released count that is not over. */
const frozen = (count: CountView) => count.status_id === 22 || count.status_id === 23

const complete = 20

const sum = (values: ReadonlyArray<number>) => values.reduce((total, n) => total + n, 0)

/** What the count's lines say should be at its location of `skuId` now: Σ (expected + in_flight). */
const shouldBe = (count: CountView, skuId: string) =>
  sum(count.lines.filter((line) => line.sku_id === skuId).map((line) => (line.expected ?? 0) + (line.in_flight ?? 0)))

/** The SKUs a count covers at its location: its one SKU, else every SKU its lines or the stock there name. */
const coveredSkus = (count: CountView, contents: ReadonlyArray<PlacedContentView>) =>
  count.sku_id !== null
    ? [count.sku_id]
    : [
      ...new Set([
        ...count.lines.map((l) => l.sku_id),
        ...contents.filter((c) => c.loc_id === count.loc_id).map((c) => c.sku_id)
      ])
    ]

const onHandAt = (contents: ReadonlyArray<PlacedContentView>, locId: string, skuId: string, tagId?: string) =>
  sum(
    contents.filter((c) => c.loc_id === locId && c.sku_id === skuId && (tagId === undefined || c.tag_id === tagId))
      .map((c) => c.qty)
  )

/**
 * The freeze of a released count (P-C1), over one operation: while a count of a location is
 * Counting or Pending Approval before it, the operation opens no movement task from that location
 * and raises no content's allocation there; and after it, what the count's lines say should be
 * there (expected at release plus every confirmation since, `in_flight`) is what is there, per
 * SKU it covers: stock there changed only by confirmations recorded against the count.
 */
export const checkFreeze = (
  before: {
    readonly counts: ReadonlyArray<CountView>
    readonly contents: ReadonlyArray<PlacedContentView>
    readonly tasks: ReadonlyArray<MovementTaskView>
  },
  after: {
    readonly counts: ReadonlyArray<CountView>
    readonly contents: ReadonlyArray<PlacedContentView>
    readonly tasks: ReadonlyArray<MovementTaskView>
    readonly claims: ReadonlyArray<ClaimView>
  }
): ReadonlyArray<string> => {
  const counted = new Map(before.counts.filter(frozen).map((count) => [count.loc_id, count]))
  const known = new Set(before.tasks.map((task) => task.id))
  const contentsBefore = new Map(before.contents.map((c) => [c.content_id, c]))
  const locOf = new Map([...before.contents, ...after.contents].map((c) => [c.content_id, c.loc_id]))
  const violations: Array<string> = []
  for (const task of after.tasks) {
    const from = task.from_loc_id ?? locOf.get(task.content_id)
    if (!known.has(task.id) && from !== undefined && counted.has(from)) {
      violations.push(`movement task ${task.id} takes stock from ${from}, which count ${counted.get(from)!.id} froze`)
    }
  }
  for (const content of after.contents) {
    const count = counted.get(content.loc_id)
    const was = contentsBefore.get(content.content_id)?.qty_allocated ?? 0
    if (count !== undefined && content.qty_allocated > was) {
      violations.push(
        `content ${content.content_id} at ${content.loc_id} was allocated ${
          content.qty_allocated - was
        } more while count ${count.id} froze it`
      )
    }
  }
  for (const count of after.counts.filter(frozen)) {
    // A blind count's figures are hidden from non-admins: nothing to compare.
    if (count.lines.some((line) => line.expected === undefined)) continue
    for (const skuId of coveredSkus(count, after.contents)) {
      const expected = shouldBe(count, skuId)
      const onHand = onHandAt(after.contents, count.loc_id, skuId)
      if (expected !== onHand) {
        violations.push(
          `count ${count.id} of ${count.loc_id}: ${onHand} of ${skuId} there, its lines say ${expected} (expected + in flight)`
        )
      }
    }
  }
  return violations
}

/** The `Count` rows a count wrote: `notes` "Count <id>". */
const countRows = (transactions: ReadonlyArray<TransactionView>, countId: number) =>
  transactions.filter((t) => t.transaction_type === "Count" && t.notes === `Count ${countId}`)

/**
 * The ledger of an applied count (P-C2), over the operation that completed it: every SKU it
 * covers (and every tag a line names) holds at its location what the lines counted, and the
 * count's `Count` rows sum to Σ counted − Σ (expected + in_flight). (`checkLedger` checks the
 * replay of those rows with the rest.)
 */
export const checkCountLedger = (
  before: { readonly counts: ReadonlyArray<CountView> },
  after: {
    readonly counts: ReadonlyArray<CountView>
    readonly contents: ReadonlyArray<PlacedContentView>
    readonly transactions: ReadonlyArray<TransactionView>
  }
): ReadonlyArray<string> => {
  const wasComplete = new Set(before.counts.filter((c) => c.status_id === complete).map((c) => c.id))
  const violations: Array<string> = []
  for (const count of after.counts.filter((c) => c.status_id === complete && !wasComplete.has(c.id))) {
    const counted = (lines: CountView["lines"]) => sum(lines.map((line) => line.qty_counted ?? 0))
    for (const skuId of coveredSkus(count, after.contents)) {
      const lines = count.lines.filter((line) => line.sku_id === skuId)
      const onHand = onHandAt(after.contents, count.loc_id, skuId)
      if (onHand !== counted(lines)) {
        violations.push(`count ${count.id} of ${count.loc_id}: ${onHand} of ${skuId} there, ${counted(lines)} counted`)
      }
      for (const line of lines) {
        if (line.tag_id === null) continue
        const tagged = onHandAt(after.contents, count.loc_id, skuId, line.tag_id)
        if (tagged !== (line.qty_counted ?? 0)) {
          violations.push(
            `count ${count.id} of ${count.loc_id}: ${tagged} of ${skuId} under tag ${line.tag_id} there, ${line.qty_counted} counted`
          )
        }
      }
    }
    const written = sum(countRows(after.transactions, count.id).map((t) => t.qty))
    const variance = counted(count.lines) -
      sum(count.lines.map((line) => (line.expected ?? 0) + (line.in_flight ?? 0)))
    if (written !== variance) {
      violations.push(
        `count ${count.id}: its Count rows sum to ${written}, Σ counted − Σ (expected + in flight) is ${variance}`
      )
    }
  }
  return violations
}

/**
 * The approval threshold (P-C5): a count with a line over the threshold has `Count` rows only once
 * Complete by the approval of an admin (`isAdmin` of its `approved_by`); and no count has them
 * before it is Complete.
 */
export const checkThreshold = (
  counts: ReadonlyArray<CountView>,
  transactions: ReadonlyArray<TransactionView>,
  isAdmin: (userId: string) => boolean
): ReadonlyArray<string> =>
  counts.flatMap((count) => {
    const rows = countRows(transactions, count.id)
    if (rows.length === 0) return []
    if (count.status_id !== complete) return [`count ${count.id} wrote Count rows while ${count.status_id}`]
    const over = count.lines.some((line) => line.within_threshold === false)
    const approved = count.approved_by !== null && isAdmin(count.approved_by)
    return over && !approved
      ? [`count ${count.id} has lines over the threshold and wrote Count rows without an admin's approval`]
      : []
  })
