import { assert, describe, it } from "@effect/vitest"
import { Stock } from "@wms/core"
import { Either } from "effect"
import * as fc from "fast-check"

// A change of stock: a receipt of a new content, a signed adjustment of an existing one, an
// allocation, a movement task reserving stock (Task), releasing it (Untask), or carrying it to
// another content (Move: to a new content, or to an existing one).
const amount = fc.integer({ min: 1, max: 20 })
const arbChanges = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant("receipt" as const), qty: fc.integer({ min: 1, max: 50 }) }),
    fc.record({
      kind: fc.constant("adjustment" as const),
      content: fc.nat(9),
      qty: fc.integer({ min: -60, max: 60 }).filter((n) => n !== 0)
    }),
    fc.record({ kind: fc.constant("allocation" as const), content: fc.nat(9), qty: amount }),
    fc.record({ kind: fc.constant("task" as const), content: fc.nat(9), qty: amount }),
    fc.record({ kind: fc.constant("untask" as const), content: fc.nat(9), qty: amount }),
    fc.record({ kind: fc.constant("move" as const), content: fc.nat(9), to: fc.option(fc.nat(9)), qty: amount })
  ),
  { maxLength: 40 }
)

interface Content {
  readonly content_id: number
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
}

type Row = Stock.ReplayedTransaction

describe("the stock rule", () => {
  it.prop(
    "any sequence of receipts, adjustments, allocations and movements keeps it, and the ledger replays to the stock",
    [
      arbChanges
    ],
    ([changes]) => {
      const contents: Array<Content> = []
      const ledger: Array<Row> = []
      const set = (content: Content, row: Row) => {
        contents[content.content_id - 1] = content
        ledger.push(row)
      }
      for (const change of changes) {
        if (change.kind === "receipt") {
          const content_id = contents.length + 1
          contents.push({ content_id, qty: change.qty, qty_allocated: 0, qty_tasked_from: 0 })
          ledger.push({ content_id, transaction_type: "Receipt", qty: change.qty })
          continue
        }
        const content = contents[change.content % Math.max(contents.length, 1)]
        if (content === undefined) continue
        const { content_id } = content
        switch (change.kind) {
          case "allocation":
          case "task": {
            // Both take only what is available, as a wave start and a task creation do.
            const qty = Math.min(change.qty, Stock.available(content))
            if (qty === 0) continue
            if (change.kind === "allocation") {
              set({ ...content, qty_allocated: content.qty_allocated + qty }, {
                content_id,
                transaction_type: "Allocate",
                qty
              })
            } else {
              set({ ...content, qty_tasked_from: content.qty_tasked_from + qty }, {
                content_id,
                transaction_type: "Task",
                qty
              })
            }
            continue
          }
          case "untask": {
            const qty = Math.min(change.qty, content.qty_tasked_from)
            if (qty === 0) continue
            set({ ...content, qty_tasked_from: content.qty_tasked_from - qty }, {
              content_id,
              transaction_type: "Untask",
              qty
            })
            continue
          }
          case "move": {
            // A confirm carries what its task reserved: off the source's qty and reservation.
            const qty = Math.min(change.qty, content.qty_tasked_from)
            if (qty === 0) continue
            const existing = change.to === null ? undefined : contents[change.to % contents.length]
            const to = existing === undefined || existing.content_id === content_id
              ? { content_id: contents.length + 1, qty: 0, qty_allocated: 0, qty_tasked_from: 0 }
              : existing
            contents[content_id - 1] = {
              ...content,
              qty: content.qty - qty,
              qty_tasked_from: content.qty_tasked_from - qty
            }
            set({ ...to, qty: to.qty + qty }, {
              content_id: to.content_id,
              from_content_id: content_id,
              transaction_type: "Move",
              qty
            })
            continue
          }
          case "adjustment": {
            const adjusted = Stock.adjust(content, change.qty)
            if (Either.isRight(adjusted)) {
              set(adjusted.right, { content_id, transaction_type: "Adjustment", qty: change.qty })
            } else {
              // A refused change names the content and leaves it as it was.
              assert.include(adjusted.left.message, `Content ${content_id}`)
              assert.isBelow(content.qty + change.qty, content.qty_allocated + content.qty_tasked_from)
            }
          }
        }
      }
      for (const content of contents) assert.isTrue(Stock.isValid(content), JSON.stringify(content))
      const replayed = Stock.replay(ledger)
      for (const { content_id, ...quantities } of contents) assert.deepStrictEqual(replayed.get(content_id), quantities)
      const quantities = Stock.replayQuantities(ledger)
      for (const content of contents) assert.strictEqual(quantities.get(content.content_id), content.qty)
    }
  )

  it("replays each movement type: Task and Untask reserve and release, a movement carries stock and its reservation", () => {
    const ledger: ReadonlyArray<Row> = [
      { content_id: 1, transaction_type: "Receipt", qty: 10 },
      { content_id: 1, transaction_type: "Allocate", qty: 2 },
      { content_id: 1, transaction_type: "Task", qty: 5 },
      { content_id: 1, transaction_type: "Task", qty: 3 },
      // Task of 5 confirmed for 4: a Putaway of 4 to content 2, and the rest released.
      { content_id: 2, from_content_id: 1, transaction_type: "Putaway", qty: 4 },
      { content_id: 1, transaction_type: "Untask", qty: 1 },
      // Task of 3 cancelled.
      { content_id: 1, transaction_type: "Untask", qty: 3 },
      { content_id: 2, transaction_type: "Task", qty: 4 },
      { content_id: 3, from_content_id: 2, transaction_type: "Move", qty: 1 },
      { content_id: 3, from_content_id: 2, transaction_type: "Replenish", qty: 3 },
      { content_id: 1, transaction_type: "Deallocate", qty: 2 },
      // Rows of other types carry no source, whatever a stray field says.
      { content_id: 1, from_content_id: null, transaction_type: "Adjustment", qty: -1 }
    ]
    assert.deepStrictEqual(
      Stock.replay(ledger),
      new Map([
        [1, { qty: 5, qty_allocated: 0, qty_tasked_from: 0 }],
        [2, { qty: 0, qty_allocated: 0, qty_tasked_from: 0 }],
        [3, { qty: 4, qty_allocated: 0, qty_tasked_from: 0 }]
      ])
    )
    assert.deepStrictEqual(Stock.effectOf("Task", 3), { qty: 0, qty_allocated: 0, qty_tasked_from: 3 })
    assert.deepStrictEqual(Stock.effectOf("Untask", 3), { qty: 0, qty_allocated: 0, qty_tasked_from: -3 })
    assert.deepStrictEqual(Stock.sourceEffect(3), { qty: -3, qty_allocated: 0, qty_tasked_from: -3 })
  })
})
