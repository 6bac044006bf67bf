/**
 * The transaction ledger (DECISIONS §5): one entry for every change of stock, allocation or
 * movement-task reservation, never changed once written, so that it replays to the stock: `qty`,
 * `qty_allocated` and `qty_tasked_from` of every content (`Stock.replay`). A movement (Putaway,
 * Move, Replenish) is one entry on the content that receives the stock, naming the one it leaves
 * in `from_content_id`. Every entry is made by `entry`.
 */
import type { Owner } from "../shared/Tenancy.js"
import type { TransactionType } from "./Stock.js"

/** One ledger transaction; `created_at` is a UTC ISO instant. */
export interface LedgerEntry extends Owner {
  readonly id: number
  readonly created_at: string
  readonly transaction_type: TransactionType
  readonly content_id: number
  readonly from_loc_id: string
  readonly to_loc_id: string
  readonly final_loc_id: string
  readonly sku_id: string
  readonly qty: number
  readonly tag_id: string
  readonly order_id: string | null
  readonly line_id: number | null
  readonly notes: string | null
  /** The content a Putaway, Move or Replenish takes its stock from (`content_id` receives it); null on the other types. */
  readonly from_content_id: number | null
  /** Why stock was corrected, from a fixed list; null where no reason is given. */
  readonly reason_code: string | null
}

/** A transaction to append; the store gives it its id. */
export type NewLedgerEntry = Omit<LedgerEntry, "id">

/** The stock a transaction is on: a content of an owner, with its SKU and tag. */
export interface StockRef extends Owner {
  readonly content_id: number
  readonly sku_id: string
  readonly tag_id: string
}

/** What a transaction does with the stock, when, and for what. */
export interface Movement {
  readonly qty: number
  /** Where the stock is. */
  readonly from: string
  /** Where it goes; `from` when it stays. */
  readonly to?: string
  /** Where it ends up; `to` when that is the end. */
  readonly final?: string
  /** The order it serves; none when absent. */
  readonly order_id?: string
  /** The line it serves: of the order, or of the pre-advice a receipt receives; none when absent. */
  readonly line_id?: number
  /** The content the stock leaves, for a movement to another content; none when absent. */
  readonly from_content_id?: number
  readonly reason_code?: string
  readonly notes: string | null
  /** UTC ISO instant. */
  readonly created_at: string
}

/** The ledger entry of a transaction of `type` on `stock`. */
export const entry = (type: TransactionType, stock: StockRef, movement: Movement): NewLedgerEntry => ({
  site_id: stock.site_id,
  client_id: stock.client_id,
  created_at: movement.created_at,
  transaction_type: type,
  content_id: stock.content_id,
  from_loc_id: movement.from,
  to_loc_id: movement.to ?? movement.from,
  final_loc_id: movement.final ?? movement.to ?? movement.from,
  sku_id: stock.sku_id,
  qty: movement.qty,
  tag_id: stock.tag_id,
  order_id: movement.order_id ?? null,
  line_id: movement.line_id ?? null,
  notes: movement.notes,
  from_content_id: movement.from_content_id ?? null,
  reason_code: movement.reason_code ?? null
})
