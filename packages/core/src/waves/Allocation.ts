/**
 * Wave allocation, pure: from the orders of a wave, the stock and a strategy to the claims (each
 * with its pick task), the allocation added to each content and the status of each order. No
 * I/O; the store only loads the input and writes the plan inside one transaction.
 *
 * Orders are served by `ship_by_date`, then `order_date`, then `order_id` (absent dates last),
 * their lines in line order. A line takes stock of its SKU and client with available stock that
 * has not expired, first expiry first out (no expiry last), then oldest, then lowest content id.
 * Allocation may be partial: what no stock covers stays short.
 */
import { Status, type StatusId } from "../shared/Status.js"
import { compareNullable, compareStock, isAllocatable, type StockToAllocate } from "../stock/Fefo.js"
import { available } from "../stock/Stock.js"

/** What orders are served by (`compareOrders`): all a wave planned page by page holds of each order. */
export interface ServingKey {
  readonly order_ref: number
  readonly order_id: string
  readonly order_date: string | null
  readonly ship_by_date: string | null
}

export interface LineToAllocate {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
}

export interface OrderToAllocate extends ServingKey {
  readonly client_id: string | null
  readonly ship_dock: string | null
  /** The customer's own name (not composed with the town), for claimsets per customer. */
  readonly customer_name: string | null
  readonly carrier_name: string | null
  readonly lines: ReadonlyArray<LineToAllocate>
}

/** How claims are grouped into claimsets (§2.6). */
export type PickType = 1 | 2 | 3 | 4

export interface AllocationStrategy {
  readonly waveId: number
  readonly pickType: PickType
  /** The description of the pick type, shown on each claimset. */
  readonly pickTypeDescription: string
  /** `YYYY-MM-DD` in the service's time zone: stock expiring before it is not allocated. */
  readonly today: string
  /** Where tasks go for an order without a ship dock. */
  readonly defaultDock: string
}

export interface PlannedClaimset {
  readonly claimset_break: string
  readonly pick_type: string
}

/** One allocation of one line from one content: a claim, its pick task and its Allocate transaction. */
export interface PlannedClaim {
  /** Index into the plan's `claimsets`. */
  readonly claimset: number
  readonly order_ref: number
  readonly order_id: string
  readonly line_id: number
  readonly client_id: string | null
  readonly content_id: number
  readonly sku_id: string
  readonly qty: number
  readonly tag_id: string
  readonly from_loc_id: string
  readonly to_loc_id: string
}

/** The plan of a wave, or what one page of its orders adds to it (`makeAllocator`). */
export interface AllocationPlan {
  /** The claimsets opened, in the order opened. */
  readonly claimsets: ReadonlyArray<PlannedClaimset>
  readonly claims: ReadonlyArray<PlannedClaim>
  /** What each touched content gains in `qty_allocated`. */
  readonly allocatedByContent: ReadonlyMap<number, number>
  /** The status of every order: Allocated, Partially Allocated, or Released when nothing was found. */
  readonly orderStatuses: ReadonlyMap<number, StatusId>
}

/** The order in which a wave's orders are served. */
export const compareOrders = (a: ServingKey, b: ServingKey) =>
  compareNullable(a.ship_by_date, b.ship_by_date) || compareNullable(a.order_date, b.order_date) ||
  (a.order_id < b.order_id ? -1 : a.order_id > b.order_id ? 1 : 0)

const claimsetBreak = (order: OrderToAllocate, strategy: AllocationStrategy): string => {
  switch (strategy.pickType) {
    case 1:
      return order.order_id
    case 2:
      return String(strategy.waveId)
    case 3:
      return order.customer_name ?? "(geen klant)"
    case 4:
      return order.carrier_name ?? "(geen vervoerder)"
  }
}

/** The stock of one SKU and client in FEFO order, with what is still free of each content. */
interface Queue {
  readonly contents: Array<StockToAllocate>
  free: Array<number>
  /** Every content before this one is used up. */
  next: number
}

/** The serving keys of many orders as columns, one entry per order: what a large wave holds of its orders to sort them. */
export interface ServingKeys {
  readonly refs: ReadonlyArray<number>
  readonly orderIds: ReadonlyArray<string>
  readonly orderDates: ReadonlyArray<string | null>
  readonly shipByDates: ReadonlyArray<string | null>
}

/**
 * The positions of orders in serving order (`compareOrders`; equal keys keep their order), from
 * their keys as columns: a wave may hold 100,000 orders, and the sort then compares strings, not
 * properties of 100,000 objects.
 */
const servingPositions = (keys: Omit<ServingKeys, "refs">): Array<number> => {
  const { orderDates, orderIds, shipByDates } = keys
  return orderIds.map((_, i) => i).sort((a, b) =>
    compareNullable(shipByDates[a], shipByDates[b]) || compareNullable(orderDates[a], orderDates[b]) ||
    (orderIds[a] < orderIds[b] ? -1 : orderIds[a] > orderIds[b] ? 1 : 0)
  )
}

/** The order refs of `keys` in serving order; equal keys keep their order. */
export const servingOrder = (keys: ServingKeys): Array<number> => servingPositions(keys).map((i) => keys.refs[i])

/** The orders in serving order. */
const inServingOrder = (orders: ReadonlyArray<OrderToAllocate>): Array<OrderToAllocate> =>
  servingPositions({
    orderIds: orders.map((order) => order.order_id),
    orderDates: orders.map((order) => order.order_date),
    shipByDates: orders.map((order) => order.ship_by_date)
  }).map((i) => orders[i])

/** The lines of an order by line number; as they are when they already are (the usual case). */
const inLineOrder = (lines: ReadonlyArray<LineToAllocate>): ReadonlyArray<LineToAllocate> => {
  for (let i = 1; i < lines.length; i++) {
    if (lines[i - 1].line > lines[i].line) return [...lines].sort((a, b) => a.line - b.line)
  }
  return lines
}

/** The plan of a page as it is built, order by order. */
interface PlanInProgress {
  readonly claimsets: Array<PlannedClaimset>
  readonly claims: Array<PlannedClaim>
  readonly allocatedByContent: Map<number, number>
  readonly orderStatuses: Map<number, StatusId>
}

/** The claimsets opened so far, across pages: their count, and the index of each by break value. */
interface Claimsets {
  readonly index: Map<string, number>
  count: number
}

/** The allocatable stock in queues by client (absent client as "") and SKU, each in FEFO order. */
const queuesOf = (stock: ReadonlyArray<StockToAllocate>, today: string): Map<string, Map<string, Queue>> => {
  const queues = new Map<string, Map<string, Queue>>()
  for (const content of stock) {
    if (!isAllocatable(content, today)) continue
    const clientKey = content.client_id ?? ""
    let bySku = queues.get(clientKey)
    if (bySku === undefined) queues.set(clientKey, bySku = new Map())
    const queue = bySku.get(content.sku_id)
    if (queue === undefined) bySku.set(content.sku_id, { contents: [content], free: [], next: 0 })
    else queue.contents.push(content)
  }
  for (const bySku of queues.values()) {
    for (const queue of bySku.values()) {
      queue.contents.sort(compareStock)
      queue.free = queue.contents.map(available)
    }
  }
  return queues
}

/** The index of the claimset of a break value, opened in the plan when it is first asked for. */
const claimsetOf = (
  plan: PlanInProgress,
  opened: Claimsets,
  breakValue: string,
  pickTypeDescription: string
): number => {
  let claimset = opened.index.get(breakValue)
  if (claimset === undefined) {
    claimset = opened.count++
    plan.claimsets.push({ claimset_break: breakValue, pick_type: pickTypeDescription })
    opened.index.set(breakValue, claimset)
  }
  return claimset
}

/** Claims what a line wants from its queue, first content first; yields how much it got. */
const allocateLine = (
  plan: PlanInProgress,
  order: OrderToAllocate,
  line: LineToAllocate,
  queue: Queue,
  toLocId: string,
  claimsetOfOrder: () => number
): number => {
  const { contents, free } = queue
  let wanted = line.qty
  while (queue.next < contents.length && free[queue.next] === 0) queue.next++
  for (let i = queue.next; i < contents.length && wanted > 0; i++) {
    if (free[i] === 0) continue
    const content = contents[i]
    const qty = Math.min(free[i], wanted)
    wanted -= qty
    free[i] -= qty
    plan.allocatedByContent.set(content.content_id, (plan.allocatedByContent.get(content.content_id) ?? 0) + qty)
    plan.claims.push({
      claimset: claimsetOfOrder(),
      order_ref: order.order_ref,
      order_id: order.order_id,
      line_id: line.line,
      client_id: order.client_id,
      content_id: content.content_id,
      sku_id: line.sku_id,
      qty,
      tag_id: content.tag_id,
      from_loc_id: content.loc_id,
      to_loc_id: toLocId
    })
  }
  return line.qty - wanted
}

/** Allocates the lines of an order in line order from its client's queues, and sets its status. */
const allocateOrder = (
  plan: PlanInProgress,
  opened: Claimsets,
  order: OrderToAllocate,
  bySku: ReadonlyMap<string, Queue> | undefined,
  strategy: AllocationStrategy
) => {
  const breakValue = claimsetBreak(order, strategy)
  const toLocId = order.ship_dock ?? strategy.defaultDock
  // An order joins its claimset with its first claim: one that gets no stock opens none.
  let claimset: number | undefined
  const claimsetOfOrder = () => claimset ??= claimsetOf(plan, opened, breakValue, strategy.pickTypeDescription)
  let ordered = 0
  let allocated = 0
  for (const line of inLineOrder(order.lines)) {
    ordered += line.qty
    const queue = bySku?.get(line.sku_id)
    if (queue !== undefined) allocated += allocateLine(plan, order, line, queue, toLocId, claimsetOfOrder)
  }
  plan.orderStatuses.set(
    order.order_ref,
    allocated === 0 ? Status.Released : allocated === ordered ? Status.Allocated : Status.PartiallyAllocated
  )
}

/**
 * Allocation page by page, for a wave too large to plan at once: each call takes the next orders,
 * all served after those of the pages before (orders of equal serving keys in the order given),
 * and answers what they add to the plan. The stock they take is gone for the next page; a claimset
 * stays open across pages, and claims index claimsets across all of them.
 */
export const makeAllocator = (
  stock: ReadonlyArray<StockToAllocate>,
  strategy: AllocationStrategy
): (orders: ReadonlyArray<OrderToAllocate>) => AllocationPlan => {
  const queues = queuesOf(stock, strategy.today)
  const opened: Claimsets = { index: new Map(), count: 0 }
  return (orders) => {
    const plan: PlanInProgress = { claimsets: [], claims: [], allocatedByContent: new Map(), orderStatuses: new Map() }
    for (const order of inServingOrder(orders)) {
      allocateOrder(plan, opened, order, queues.get(order.client_id ?? ""), strategy)
    }
    return plan
  }
}

export const allocate = (
  orders: ReadonlyArray<OrderToAllocate>,
  stock: ReadonlyArray<StockToAllocate>,
  strategy: AllocationStrategy
): AllocationPlan => makeAllocator(stock, strategy)(orders)

/** What a short pick's order line still wants: `qty` of its SKU from stock of its client. */
export interface Shortfall {
  readonly order_ref: number
  readonly order_id: string
  readonly line_id: number
  readonly client_id: string | null
  readonly sku_id: string
  readonly qty: number
  /** Where the shorted task took its stock: the re-allocation's tasks go there too. */
  readonly to_loc_id: string
}

/**
 * The claims that cover a shortfall from `stock`, by the same FEFO rule as a wave (warehouse cycle
 * 3.6 S2); they may cover less than it. Every claim has claimset index 0: the caller puts them in
 * the shorted task's claimset.
 */
export const allocateShortfall = (
  shortfall: Shortfall,
  stock: ReadonlyArray<StockToAllocate>,
  today: string
): ReadonlyArray<PlannedClaim> => {
  const bySku = queuesOf(stock, today).get(shortfall.client_id ?? "")
  const queue = bySku?.get(shortfall.sku_id)
  if (queue === undefined) return []
  const plan: PlanInProgress = { claimsets: [], claims: [], allocatedByContent: new Map(), orderStatuses: new Map() }
  const order: OrderToAllocate = {
    order_ref: shortfall.order_ref,
    order_id: shortfall.order_id,
    order_date: null,
    ship_by_date: null,
    client_id: shortfall.client_id,
    ship_dock: shortfall.to_loc_id,
    customer_name: null,
    carrier_name: null,
    lines: []
  }
  allocateLine(
    plan,
    order,
    { line: shortfall.line_id, sku_id: shortfall.sku_id, qty: shortfall.qty },
    queue,
    shortfall.to_loc_id,
    () => 0
  )
  return plan.claims
}
