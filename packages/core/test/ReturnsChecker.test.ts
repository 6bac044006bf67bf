/**
 * `checkReturns` of the property kit finds each kind of violation of returns (spec §2, §5) in
 * hand-made records, and none in records that hold.
 */
import { assert, describe, it } from "@effect/vitest"
import { checkReturns, type OrderView, type ReturnView, type TransactionView } from "@wms/core/testing"

const order: OrderView = {
  order_id: "SO-1",
  order_status: { id: 19 },
  lines: [{ line: 1, qty: 5, qty_picked: 4, qty_shipped: 4 }]
}

const line = (fields: Partial<ReturnView["lines"][number]> = {}) => ({
  line: 1,
  order_line: 1,
  qty_authorized: 2,
  qty_received: 1,
  qty_restocked: 1,
  qty_quarantined: 0,
  qty_scrapped: 0,
  ...fields
})

const rma = (fields: Partial<ReturnView> = {}): ReturnView => ({
  return_id: "R1",
  order_id: "SO-1",
  status_id: 2,
  lines: [line()],
  ...fields
})

const returned = (notes: string, qty: number): TransactionView => ({
  content_id: 1,
  transaction_type: "Return",
  qty,
  notes
})

describe("checkReturns", () => {
  it("finds nothing in returns that hold, a cancelled one not counted against what shipped", () => {
    const cancelled = rma({
      return_id: "R2",
      status_id: 21,
      lines: [line({ qty_authorized: 4, qty_received: 0, qty_restocked: 0 })]
    })
    assert.deepStrictEqual(checkReturns(order, [rma(), cancelled], [returned("Return R1 line 1", 1)]), [])
  })

  it("names authorized over shipped, received over authorized, a wrong split, status and ledger rows", () => {
    assert.deepStrictEqual(
      checkReturns(order, [
        rma({ lines: [line({ qty_authorized: 3, qty_received: 4, qty_restocked: 2, qty_scrapped: 1 })] }),
        rma({ return_id: "R2", status_id: 1, lines: [line({ order_line: 9 })] })
      ], [returned("Return R1 line 1", 1)]),
      [
        "return R1 line 1: 4 received, 3 authorized",
        "return R1 line 1: 4 received, 3 disposed of",
        "return R1 line 1: 2 restocked and 0 quarantined, Return rows of 1",
        "return R1 is status 2, expected 3",
        "return R2 line 1: order SO-1 has no line 9",
        "return R2 line 1: 1 restocked and 0 quarantined, Return rows of 0",
        "return R2 is status 1, expected 2"
      ]
    )
    assert.deepStrictEqual(
      checkReturns(order, [
        rma({ lines: [line({ qty_authorized: 5, qty_received: 0, qty_restocked: 0 })], status_id: 1 })
      ]),
      ["order SO-1 line 1: 5 authorized, 4 shipped"]
    )
    assert.deepStrictEqual(
      checkReturns(order, [rma({ status_id: 20 }), rma({ return_id: "R2", status_id: 21 })]),
      [
        "return R1 is status 20, expected all received as authorized",
        "return R2 is status 21, expected nothing received"
      ]
    )
  })
})
