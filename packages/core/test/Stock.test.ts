import { assert, describe, it } from "@effect/vitest"
import { Stock } from "@wms/core"
import { Either, FastCheck as fc } from "effect"

// A change of stock: a receipt of a new content, or a signed adjustment of an existing one.
const arbChanges = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant("receipt" as const), qty: fc.integer({ min: 1, max: 50 }) }),
    fc.record({
      kind: fc.constant("adjustment" as const),
      content: fc.nat(9),
      qty: fc.integer({ min: -60, max: 60 }).filter((n) => n !== 0)
    }),
    fc.record({ kind: fc.constant("allocation" as const), content: fc.nat(9), qty: fc.integer({ min: 1, max: 20 }) })
  ),
  { maxLength: 40 }
)

interface Content {
  readonly content_id: number
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
}

describe("the stock rule", () => {
  it.prop("any sequence of receipts, adjustments and allocations keeps it, and the ledger replays to the stock", [
    arbChanges
  ], ([changes]) => {
    const contents: Array<Content> = []
    const ledger: Array<{ content_id: number; transaction_type: Stock.TransactionType; qty: number }> = []
    for (const change of changes) {
      if (change.kind === "receipt") {
        const content_id = contents.length + 1
        contents.push({ content_id, qty: change.qty, qty_allocated: 0, qty_tasked_from: 0 })
        ledger.push({ content_id, transaction_type: "Receipt", qty: change.qty })
        continue
      }
      const content = contents[change.content % Math.max(contents.length, 1)]
      if (content === undefined) continue
      if (change.kind === "allocation") {
        // Allocation takes only what is available, as a wave start does.
        const qty = Math.min(change.qty, Stock.available(content))
        if (qty === 0) continue
        contents[content.content_id - 1] = { ...content, qty_allocated: content.qty_allocated + qty }
        ledger.push({ content_id: content.content_id, transaction_type: "Allocate", qty })
        continue
      }
      const adjusted = Stock.adjust(content, change.qty)
      if (Either.isRight(adjusted)) {
        contents[content.content_id - 1] = adjusted.right
        ledger.push({ content_id: content.content_id, transaction_type: "Adjustment", qty: change.qty })
      } else {
        // A refused change names the content and leaves it as it was.
        assert.include(adjusted.left.message, `Content ${content.content_id}`)
        assert.isBelow(content.qty + change.qty, content.qty_allocated + content.qty_tasked_from)
      }
    }
    for (const content of contents) assert.isTrue(Stock.isValid(content), JSON.stringify(content))
    const replayed = Stock.replayQuantities(ledger)
    for (const content of contents) assert.strictEqual(replayed.get(content.content_id), content.qty)
  })
})
