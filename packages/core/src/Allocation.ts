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
import { available, type ContentQuantities } from "./Stock.js"
import { Status, type StatusId } from "./Status.js"

export interface LineToAllocate {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
}

export interface OrderToAllocate {
  readonly order_ref: number
  readonly order_id: string
  readonly client_id: string | null
  readonly order_date: string | null
  readonly ship_by_date: string | null
  readonly ship_dock: string | null
  /** The customer's own name (not composed with the town), for claimsets per customer. */
  readonly customer_name: string | null
  readonly carrier_name: string | null
  readonly lines: ReadonlyArray<LineToAllocate>
}

export interface StockToAllocate extends ContentQuantities {
  readonly content_id: number
  readonly sku_id: string
  readonly client_id: string | null
  readonly loc_id: string
  readonly tag_id: string
  readonly expiry_date: string | null
  /** UTC ISO instant: older stock goes first among equal expiry dates. */
  readonly created_at: string
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

export interface AllocationPlan {
  readonly claimsets: ReadonlyArray<PlannedClaimset>
  readonly claims: ReadonlyArray<PlannedClaim>
  /** What each touched content gains in `qty_allocated`. */
  readonly allocatedByContent: ReadonlyMap<number, number>
  /** The status of every order: Allocated, Partially Allocated, or Released when nothing was found. */
  readonly orderStatuses: ReadonlyMap<number, StatusId>
}

/** Absent values sort after present ones; present ones in text order. */
const compareNullable = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1

/** The order in which a wave's orders are served. */
export const compareOrders = (a: OrderToAllocate, b: OrderToAllocate) =>
  compareNullable(a.ship_by_date, b.ship_by_date) || compareNullable(a.order_date, b.order_date) ||
  (a.order_id < b.order_id ? -1 : a.order_id > b.order_id ? 1 : 0)

/** First expiry first out (no expiry last), then oldest, then lowest content id. */
export const compareStock = (a: StockToAllocate, b: StockToAllocate) =>
  compareNullable(a.expiry_date, b.expiry_date) || compareNullable(a.created_at, b.created_at) ||
  a.content_id - b.content_id

/** Whether stock may be allocated on `today`: not expired (an expiry date of today is still good). */
export const isAllocatable = (stock: StockToAllocate, today: string) =>
  available(stock) > 0 && (stock.expiry_date === null || stock.expiry_date >= today)

const stockKey = (clientId: string | null, skuId: string) => `${clientId ?? ""}\u0000${skuId}`

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

export const allocate = (
  orders: ReadonlyArray<OrderToAllocate>,
  stock: ReadonlyArray<StockToAllocate>,
  strategy: AllocationStrategy
): AllocationPlan => {
  const queues = new Map<string, Array<StockToAllocate>>()
  for (const content of stock) {
    if (!isAllocatable(content, strategy.today)) continue
    const key = stockKey(content.client_id, content.sku_id)
    const queue = queues.get(key)
    if (queue === undefined) queues.set(key, [content])
    else queue.push(content)
  }
  for (const queue of queues.values()) queue.sort(compareStock)
  // What is still available of each content as the plan takes from it.
  const left = new Map<number, number>()
  const allocatedByContent = new Map<number, number>()
  const claimsets: Array<PlannedClaimset> = []
  const claimsetIndex = new Map<string, number>()
  const claims: Array<PlannedClaim> = []
  const orderStatuses = new Map<number, StatusId>()

  for (const order of [...orders].sort(compareOrders)) {
    const breakValue = claimsetBreak(order, strategy)
    let ordered = 0
    let allocated = 0
    for (const line of [...order.lines].sort((a, b) => a.line - b.line)) {
      ordered += line.qty
      let wanted = line.qty
      for (const content of queues.get(stockKey(order.client_id, line.sku_id)) ?? []) {
        if (wanted === 0) break
        const free = left.get(content.content_id) ?? available(content)
        if (free === 0) continue
        const qty = Math.min(free, wanted)
        wanted -= qty
        left.set(content.content_id, free - qty)
        allocatedByContent.set(content.content_id, (allocatedByContent.get(content.content_id) ?? 0) + qty)
        let claimset = claimsetIndex.get(breakValue)
        if (claimset === undefined) {
          claimset = claimsets.push({ claimset_break: breakValue, pick_type: strategy.pickTypeDescription }) - 1
          claimsetIndex.set(breakValue, claimset)
        }
        claims.push({
          claimset,
          order_ref: order.order_ref,
          order_id: order.order_id,
          line_id: line.line,
          client_id: order.client_id,
          content_id: content.content_id,
          sku_id: line.sku_id,
          qty,
          tag_id: content.tag_id,
          from_loc_id: content.loc_id,
          to_loc_id: order.ship_dock ?? strategy.defaultDock
        })
      }
      allocated += line.qty - wanted
    }
    orderStatuses.set(
      order.order_ref,
      allocated === 0 ? Status.Released : allocated === ordered ? Status.Allocated : Status.PartiallyAllocated
    )
  }
  return { claimsets, claims, allocatedByContent, orderStatuses }
}
