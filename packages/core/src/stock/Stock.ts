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

/**
 * The kinds of ledger transaction (DECISIONS §5), then those of movement tasks: Task and Untask
 * reserve and release a source's stock, Putaway, Move and Replenish carry it to another content;
 * Count, a count's signed variance on a content; Hold and Release, a hold beginning and ending
 * to cover a content, which change no quantity; and Return, returned goods restocked or
 * quarantined (spec §2 R3), entering like a receipt.
 */
export const TransactionTypes = [
  "Receipt",
  "Allocate",
  "Deallocate",
  "Pick",
  "Shipment",
  "Adjustment",
  "Lost",
  "Task",
  "Untask",
  "Putaway",
  "Move",
  "Replenish",
  "Count",
  "Hold",
  "Release",
  "TransferOut",
  "TransferIn",
  "Return"
] as const
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

/** A ledger transaction as a replay reads it. */
export interface ReplayedTransaction {
  readonly content_id: number
  /** The source of a movement (Putaway, Move, Replenish); absent or null on the other types. */
  readonly from_content_id?: number | null
  readonly transaction_type: TransactionType
  readonly qty: number
}

/**
 * What a ledger transaction does to its content: to its `qty`, its `qty_allocated` and its
 * `qty_tasked_from`. A movement (Putaway, Move, Replenish) also takes `qty` and its reservation
 * off `from_content_id` (`sourceEffect`).
 */
export const effectOf = (type: TransactionType, qty: number): ContentQuantities => {
  switch (type) {
    case "Receipt":
    case "TransferIn":
    case "Return":
    case "Adjustment":
    case "Count":
    case "Putaway":
    case "Move":
    case "Replenish":
      return { qty, qty_allocated: 0, qty_tasked_from: 0 }
    case "Allocate":
      return { qty: 0, qty_allocated: qty, qty_tasked_from: 0 }
    case "Deallocate":
      return { qty: 0, qty_allocated: -qty, qty_tasked_from: 0 }
    // A pick and the lost rest of a short pick take their stock out of the claim's allocation.
    case "Pick":
    case "Lost":
      return { qty: -qty, qty_allocated: -qty, qty_tasked_from: 0 }
    case "Task":
      return { qty: 0, qty_allocated: 0, qty_tasked_from: qty }
    case "Untask":
      return { qty: 0, qty_allocated: 0, qty_tasked_from: -qty }
    // Shipped stock left its content when it was picked; a transfer's is shipped alike (spec §3).
    // A hold and its release change no quantity: they record which stock was held.
    case "Shipment":
    case "TransferOut":
    case "Hold":
    case "Release":
      return { qty: 0, qty_allocated: 0, qty_tasked_from: 0 }
  }
}

/** What a movement of `qty` does to the content it leaves: its stock and its reservation go. */
export const sourceEffect = (qty: number): ContentQuantities => ({ qty: -qty, qty_allocated: 0, qty_tasked_from: -qty })

const isMovement = (type: TransactionType) => type === "Putaway" || type === "Move" || type === "Replenish"

/** Replays a ledger from zero: the `qty`, `qty_allocated` and `qty_tasked_from` of every content it names. */
export const replay = (transactions: Iterable<ReplayedTransaction>): Map<number, ContentQuantities> => {
  const contents = new Map<number, ContentQuantities>()
  const add = (contentId: number, effect: ContentQuantities) => {
    const current = contents.get(contentId) ?? { qty: 0, qty_allocated: 0, qty_tasked_from: 0 }
    contents.set(contentId, {
      qty: current.qty + effect.qty,
      qty_allocated: current.qty_allocated + effect.qty_allocated,
      qty_tasked_from: current.qty_tasked_from + effect.qty_tasked_from
    })
  }
  for (const t of transactions) {
    add(t.content_id, effectOf(t.transaction_type, t.qty))
    if (isMovement(t.transaction_type) && t.from_content_id != null) add(t.from_content_id, sourceEffect(t.qty))
  }
  return contents
}

/** Replays a ledger from zero: the `qty` of every content it names. */
export const replayQuantities = (transactions: Iterable<ReplayedTransaction>): Map<number, number> =>
  new Map([...replay(transactions)].map(([contentId, quantities]) => [contentId, quantities.qty]))
