import { assert, describe, it } from "@effect/vitest"
import { main } from "./facade.js"

describe("embedded with the Promise facade", () => {
  it("receives, allocates, picks and ships an order", async () => {
    const { order, shipped, stock } = await main()
    assert.strictEqual(shipped, "SO-1")
    assert.strictEqual(order.order_status_description, "Shipped")
    assert.deepStrictEqual(order.lines.map((line) => [line.qty_picked, line.qty_shipped]), [[4, 4]])
    const quantities = stock.map((content) => [content.sku_id, content.qty, content.qty_allocated])
    assert.deepStrictEqual(quantities, [["APPLE", 6, 0]])
  })
})
