/**
 * The stock rule, pure. A content is a quantity of one SKU at one location under one tag; of its
 * `qty`, `qty_allocated` is reserved for orders and `qty_tasked_from` is under movement tasks, and
 * at every moment `0 ≤ qty_allocated + qty_tasked_from ≤ qty`. Every change of stock or
 * allocation writes exactly one ledger transaction, so the ledger replays to the stock.
 */
import { Either } from "effect"
import { StockShort } from "./Errors.js"

/** The quantities of a content that the rule constrains. */
export interface ContentQuantities {
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
}

/** The kinds of ledger transaction (DECISIONS §5). */
export const TransactionTypes = ["Receipt", "Allocate", "Deallocate", "Pick", "Shipment", "Adjustment", "Lost"] as const
export type TransactionType = typeof TransactionTypes[number]

/** Stock that may still be allocated or moved: `qty − qty_allocated − qty_tasked_from`. */
export const available = (content: ContentQuantities): number =>
  content.qty - content.qty_allocated - content.qty_tasked_from

/** Whether a content obeys `0 ≤ qty_allocated + qty_tasked_from ≤ qty` with no negative part. */
export const isValid = (content: ContentQuantities): boolean =>
  Number.isInteger(content.qty) && content.qty_allocated >= 0 && content.qty_tasked_from >= 0 &&
  content.qty_allocated + content.qty_tasked_from <= content.qty

/**
 * The content after adjusting its `qty` by `delta` (positive or negative). It may never fall below
 * what is allocated or tasked: that is a 409 naming the content.
 */
export const adjust = <C extends ContentQuantities>(
  content: C & { readonly content_id: number },
  delta: number
): Either.Either<C, StockShort> => {
  const next = { ...content, qty: content.qty + delta }
  if (next.qty < 0 || !isValid(next)) {
    return Either.left(
      new StockShort({
        contentId: content.content_id,
        qty: content.qty,
        next: next.qty,
        held: content.qty_allocated + content.qty_tasked_from,
        available: available(content)
      })
    )
  }
  return Either.right(next)
}

/** What a ledger transaction does to its content's `qty`. */
export const qtyEffect = (type: TransactionType, qty: number): number => {
  switch (type) {
    case "Receipt":
    case "Adjustment":
      return qty
    case "Pick":
    case "Lost":
      return -qty
    case "Allocate":
    case "Deallocate":
    case "Shipment":
      return 0
  }
}

/** Replays a ledger from zero: the `qty` of every content it names. */
export const replayQuantities = (
  transactions: Iterable<
    { readonly content_id: number; readonly transaction_type: TransactionType; readonly qty: number }
  >
): Map<number, number> => {
  const quantities = new Map<number, number>()
  for (const t of transactions) {
    quantities.set(t.content_id, (quantities.get(t.content_id) ?? 0) + qtyEffect(t.transaction_type, t.qty))
  }
  return quantities
}
