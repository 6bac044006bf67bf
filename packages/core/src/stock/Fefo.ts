/**
 * The order stock is taken in, pure: first expiry first out. Waves allocate by it, replenishment
 * chooses its reserve by it and a move names its source by it, so it belongs to the stock.
 */
import { available, type ContentQuantities } from "./Stock.js"

/** A content as FEFO orders it: what it holds, where, and when it expires and arrived. */
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

/** Absent values sort after present ones; present ones in text order. */
export const compareNullable = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1

/** First expiry first out (no expiry last), then oldest, then lowest content id. */
export const compareStock = (a: StockToAllocate, b: StockToAllocate) =>
  compareNullable(a.expiry_date, b.expiry_date) || compareNullable(a.created_at, b.created_at) ||
  a.content_id - b.content_id

/** Whether stock may be allocated on `today`: not expired (an expiry date of today is still good). */
export const isAllocatable = (stock: StockToAllocate, today: string) =>
  available(stock) > 0 && (stock.expiry_date === null || stock.expiry_date >= today)
