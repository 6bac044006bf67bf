/**
 * The invariant checkers of stock, pure: each reads records as the API shows them (`Views.ts`, or
 * hand-made ones of the same shape) and returns one line per violation, none when the invariant
 * holds. `checkInvariants` runs them with those of locations (`Capacity.ts`).
 */
import { letsStockOut } from "../locations/Location.js"
import {
  available,
  type ContentQuantities,
  isValid,
  replay,
  replayQuantities,
  type TransactionType
} from "../stock/Stock.js"
import { checkCapacity, checkOccupancy } from "./Capacity.js"
import type {
  ClaimView,
  ContentView,
  InvariantState,
  LedgerRowView,
  LocationStatusView,
  MovementTaskView,
  PlacedContentView,
  TransactionView,
  WarehouseSnapshot
} from "./Views.js"

const sumBy = <A>(items: Iterable<A>, key: (item: A) => string, value: (item: A) => number) => {
  const sums = new Map<string, number>()
  for (const item of items) sums.set(key(item), (sums.get(key(item)) ?? 0) + value(item))
  return sums
}

/** Stock never negative nor over-allocated: `0 ≤ qty_allocated + qty_tasked_from ≤ qty` for every content. */
export const checkStock = (contents: ReadonlyArray<ContentView>): ReadonlyArray<string> =>
  contents.filter((c) => !isValid(c) || c.qty < 0).map((c) =>
    `content ${c.content_id}: qty ${c.qty}, allocated ${c.qty_allocated}, tasked ${c.qty_tasked_from}`
  )

const showQuantities = (q: ContentQuantities) =>
  `qty ${q.qty}, allocated ${q.qty_allocated}, tasked ${q.qty_tasked_from}`

const sameQuantities = (a: ContentQuantities, b: ContentQuantities) =>
  a.qty === b.qty && a.qty_allocated === b.qty_allocated && a.qty_tasked_from === b.qty_tasked_from

const none: ContentQuantities = { qty: 0, qty_allocated: 0, qty_tasked_from: 0 }

/**
 * The ledger replays to the stock (`Stock.replay`): the transactions of each content add up to its
 * `qty`, `qty_allocated` and `qty_tasked_from`, and a content the ledger names but the list lacks
 * (the overview leaves out empty ones) replays to nothing. Transactions without a
 * `from_content_id` field, as callers wrote them before movements existed, are checked as then:
 * the `qty` of each listed content only.
 */
export const checkLedger = (
  contents: ReadonlyArray<ContentView>,
  transactions: ReadonlyArray<TransactionView>
): ReadonlyArray<string> => {
  if (!transactions.some((t) => "from_content_id" in t)) {
    const replayed = replayQuantities(transactions)
    return contents.filter((c) => (replayed.get(c.content_id) ?? 0) !== c.qty).map((c) =>
      `content ${c.content_id}: qty ${c.qty}, ledger replays to ${replayed.get(c.content_id) ?? 0}`
    )
  }
  const replayed = replay(transactions)
  const listed = new Set(contents.map((c) => c.content_id))
  return [
    ...contents.filter((c) => !sameQuantities(replayed.get(c.content_id) ?? none, c)).map((c) =>
      `content ${c.content_id}: ${showQuantities(c)}, ledger replays to ${
        showQuantities(replayed.get(c.content_id) ?? none)
      }`
    ),
    ...[...replayed].filter(([contentId, q]) => !listed.has(contentId) && !sameQuantities(q, none)).map((
      [contentId, q]
    ) => `content ${contentId}: not listed (no stock), ledger replays to ${showQuantities(q)}`)
  ]
}

/** Every allocated unit is claimed: a content's `qty_allocated` is the sum of its open claims. */
export const checkClaims = (
  contents: ReadonlyArray<ContentView>,
  claims: ReadonlyArray<ClaimView>
): ReadonlyArray<string> => {
  const claimed = new Map<number, number>()
  for (const claim of claims) {
    if (claim.status === "allocated") claimed.set(claim.content_id, (claimed.get(claim.content_id) ?? 0) + claim.qty)
  }
  return contents.filter((c) => (claimed.get(c.content_id) ?? 0) !== c.qty_allocated).map((c) =>
    `content ${c.content_id}: qty_allocated ${c.qty_allocated}, open claims ${claimed.get(c.content_id) ?? 0}`
  )
}

/**
 * No unit is tasked twice: a content's `qty_tasked_from` is the sum of its Open movement tasks,
 * and no Open task is on a content the list lacks (one without stock).
 */
export const checkTasks = (
  contents: ReadonlyArray<ContentView>,
  tasks: ReadonlyArray<MovementTaskView>
): ReadonlyArray<string> => {
  const open = tasks.filter((task) => task.status_id === 1)
  const tasked = new Map<number, number>()
  for (const task of open) tasked.set(task.content_id, (tasked.get(task.content_id) ?? 0) + task.quantity)
  const listed = new Set(contents.map((c) => c.content_id))
  return [
    ...contents.filter((c) => (tasked.get(c.content_id) ?? 0) !== c.qty_tasked_from).map((c) =>
      `content ${c.content_id}: qty_tasked_from ${c.qty_tasked_from}, open movement tasks ${
        tasked.get(c.content_id) ?? 0
      }`
    ),
    ...open.filter((task) => !listed.has(task.content_id)).map((task) =>
      `movement task ${task.id} is Open on content ${task.content_id}, which holds no stock`
    )
  ]
}

// How a transaction changes the stock of its SKU and client: movements only carry it around.
const stockChange = (t: TransactionView): number => {
  switch (t.transaction_type) {
    case "Receipt":
    case "TransferIn":
    case "Return":
    case "Adjustment":
    case "Count":
      return t.qty
    case "Pick":
    case "Lost":
      return -t.qty
    case "Allocate":
    case "Deallocate":
    case "Shipment":
    case "TransferOut":
    case "Task":
    case "Untask":
    case "Putaway":
    case "Move":
    case "Replenish":
    case "Hold":
    case "Release":
      return 0
  }
}

const isMovement = (type: TransactionType) => type === "Putaway" || type === "Move" || type === "Replenish"

/**
 * Stock is conserved: for every SKU and client, the `qty` on hand is what receipts, returns, adjustments
 * and count variances brought less what picks and losses took; and every movement (Putaway, Move,
 * Replenish) names its source, which is of the same SKU and client (and expiry, when both are
 * listed), so movements net to zero.
 */
export const checkConservation = (
  contents: ReadonlyArray<ContentView>,
  transactions: ReadonlyArray<LedgerRowView>
): ReadonlyArray<string> => {
  const key = (row: { readonly sku_id: string; readonly client_id: string | null }) =>
    `${row.sku_id} of ${row.client_id ?? "the site"}`
  const onHand = sumBy(contents, key, (c) => c.qty)
  const booked = sumBy(transactions, key, stockChange)
  const violations = [...new Set([...onHand.keys(), ...booked.keys()])]
    .filter((k) => (onHand.get(k) ?? 0) !== (booked.get(k) ?? 0))
    .map((k) => `SKU ${k}: ${onHand.get(k) ?? 0} on hand, the ledger brought in ${booked.get(k) ?? 0} net`)
  const ownerOf = new Map(transactions.map((t) => [t.content_id, key(t)]))
  const byId = new Map(contents.map((c) => [c.content_id, c]))
  for (const t of transactions.filter((row) => isMovement(row.transaction_type))) {
    const movement = `${t.transaction_type} of ${t.qty} into content ${t.content_id}`
    if (t.from_content_id === null) {
      violations.push(`${movement} names no source`)
      continue
    }
    const source = ownerOf.get(t.from_content_id)
    if (source !== key(t)) violations.push(`${movement} takes it from content ${t.from_content_id}, ${source}`)
    const from = byId.get(t.from_content_id)
    const to = byId.get(t.content_id)
    if (from !== undefined && to !== undefined && from.expiry_date !== to.expiry_date) {
      violations.push(`${movement} changes its expiry from ${from.expiry_date} to ${to.expiry_date}`)
    }
  }
  return violations
}

/**
 * Whether `a` comes before `b` in FEFO order (`compareStock`: earlier expiry, no expiry last,
 * then older), as far as the overview shows: its creation times are to the second, and a moved
 * content keeps its source's, so between two created within the same second neither is known to
 * come first (the engine's tie-break by content id is for equal instants only).
 */
export const comesFirst = (a: ContentView, b: ContentView): boolean => {
  if (a.expiry_date !== b.expiry_date) {
    return b.expiry_date === null || (a.expiry_date !== null && a.expiry_date < b.expiry_date)
  }
  return a.created_datetime < b.created_datetime
}

/** Where a content lies lets its stock out: unmanaged, or managed with a status that does. */
const outgoing = (locations: ReadonlyArray<LocationStatusView>) => {
  const statuses = new Map(locations.map((l) => [l.loc_id, l.status]))
  return (content: { readonly loc_id?: string }) => {
    const status = content.loc_id === undefined ? undefined : statuses.get(content.loc_id)
    return status === undefined || letsStockOut(status)
  }
}

/**
 * First expiry first out, checked right after a wave start: for every content the start claimed,
 * each unexpired content of the same SKU and client that comes first (earlier expiry, no expiry
 * last, then created in an earlier second) has nothing available left. With `locations`, contents at a
 * location that lets no stock out are not candidates (they are not allocatable).
 */
export const checkFefo = (
  contents: ReadonlyArray<ContentView & { readonly loc_id?: string }>,
  claimed: ReadonlyArray<ClaimView>,
  today: string,
  locations: ReadonlyArray<LocationStatusView> = []
): ReadonlyArray<string> => {
  const allocatable = outgoing(locations)
  const violations: Array<string> = []
  for (const contentId of new Set(claimed.map((claim) => claim.content_id))) {
    const taken = contents.find((c) => c.content_id === contentId)
    if (taken === undefined) continue
    for (const other of contents) {
      if (other.sku_id !== taken.sku_id || other.client_id !== taken.client_id) continue
      if (other.expiry_date !== null && other.expiry_date < today) continue
      if (!allocatable(other)) continue
      if (comesFirst(other, taken) && available(other) > 0) {
        violations.push(`content ${contentId} was claimed while content ${other.content_id} comes first and has stock`)
      }
    }
  }
  return violations
}

/**
 * Checked right after a wave start, with its claims: none is on a content at a managed location
 * whose status lets no stock out (`Blocked Out`, `Blocked`, `Counting`).
 */
export const checkBlockedAllocation = (
  contents: ReadonlyArray<PlacedContentView>,
  claimed: ReadonlyArray<ClaimView>,
  locations: ReadonlyArray<LocationStatusView>
): ReadonlyArray<string> => {
  const allocatable = outgoing(locations)
  const byId = new Map(contents.map((c) => [c.content_id, c]))
  const statuses = new Map(locations.map((l) => [l.loc_id, l.status]))
  return claimed.flatMap((claim) => {
    const content = byId.get(claim.content_id)
    return content === undefined || allocatable(content)
      ? []
      : [`content ${claim.content_id} was claimed at ${content.loc_id}, which is ${statuses.get(content.loc_id)}`]
  })
}

/**
 * A wave start allocates only available stock, never tasked stock: comparing the contents before
 * and after it, no content's `qty_allocated` rose by more than it had available, and no
 * `qty_tasked_from` changed but by the `replenished` tasks: the Replenish tasks the start opened
 * after its allocation, for the pick faces it took stock from.
 */
export const checkUntaskedAllocation = (
  before: ReadonlyArray<ContentView>,
  after: ReadonlyArray<ContentView>,
  replenished: ReadonlyArray<Pick<MovementTaskView, "content_id" | "quantity">> = []
): ReadonlyArray<string> => {
  const earlier = new Map(before.map((c) => [c.content_id, c]))
  const tasked = sumBy(replenished, (task) => String(task.content_id), (task) => task.quantity)
  return after.flatMap((c) => {
    const was = earlier.get(c.content_id) ?? { ...c, qty_allocated: 0, qty_tasked_from: 0, qty: 0 }
    const allocated = c.qty_allocated - was.qty_allocated
    const expected = was.qty_tasked_from + (tasked.get(String(c.content_id)) ?? 0)
    return [
      ...(allocated > available(was)
        ? [`content ${c.content_id}: ${allocated} allocated by the start, ${available(was)} was available`]
        : []),
      ...(c.qty_tasked_from === expected
        ? []
        : [`content ${c.content_id}: the start changed qty_tasked_from ${was.qty_tasked_from} to ${c.qty_tasked_from}`])
    ]
  })
}

/**
 * Every invariant violation of a state: stock, ledger and claims; with tasks and locations (a
 * `WarehouseSnapshot`), also tasks, conservation, capacity and occupancy.
 */
export const checkInvariants = (state: InvariantState | WarehouseSnapshot): ReadonlyArray<string> => [
  ...checkStock(state.contents),
  ...checkLedger(state.contents, state.transactions),
  ...checkClaims(state.contents, state.claims),
  ...("tasks" in state
    ? [
      ...checkTasks(state.contents, state.tasks),
      ...checkConservation(state.contents, state.transactions),
      ...checkCapacity(state.locations, state.contents, state.tasks, state.skus, state.transactions),
      ...checkOccupancy(state.locations, state.contents, state.tasks, state.skus)
    ]
    : [])
]
