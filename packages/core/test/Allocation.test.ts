import { assert, describe, it } from "@effect/vitest"
import {
  allocate,
  type AllocationStrategy,
  compareStock,
  isAllocatable,
  type OrderToAllocate,
  type StockToAllocate
} from "@wms/core"
import * as fc from "fast-check"

const skus = ["A", "B", "C"]
const clients = [null, "c1"]
const dates = ["2030-01-01", "2030-01-02", "2030-01-03", "2030-01-04"]

const arbStock = fc.array(
  fc.record({
    sku_id: fc.constantFrom(...skus),
    client_id: fc.constantFrom(...clients),
    loc_id: fc.constantFrom("L1", "L2"),
    expiry_date: fc.option(fc.constantFrom(...dates), { nil: null }),
    created_at: fc.constantFrom("2029-12-01T00:00:00.000Z", "2029-12-02T00:00:00.000Z"),
    qty: fc.integer({ min: 0, max: 20 }),
    held: fc.nat(20)
  }).map((c) => {
    const qty_allocated = Math.min(c.held, c.qty)
    return { ...c, qty_allocated, qty_tasked_from: 0 }
  }),
  { maxLength: 12 }
).map((contents): Array<StockToAllocate> =>
  contents.map(({ held: _, ...c }, i) => ({ ...c, content_id: i + 1, tag_id: `T${i + 1}` }))
)

const arbOrders = fc.array(
  fc.record({
    client_id: fc.constantFrom(...clients),
    order_date: fc.option(fc.constantFrom(...dates), { nil: null }),
    ship_by_date: fc.option(fc.constantFrom(...dates), { nil: null }),
    ship_dock: fc.option(fc.constant("DOCK-7"), { nil: null }),
    customer_name: fc.option(fc.constantFrom("Jansen", "Smit"), { nil: null }),
    carrier_name: fc.option(fc.constantFrom("PostNL", "DHL"), { nil: null }),
    lines: fc.array(fc.record({ sku_id: fc.constantFrom(...skus), qty: fc.integer({ min: 1, max: 15 }) }), {
      maxLength: 4
    })
  }),
  { maxLength: 8 }
).map((orders): Array<OrderToAllocate> =>
  orders.map((o, i) => ({
    ...o,
    order_ref: i + 1,
    order_id: `O${String(i + 1).padStart(3, "0")}`,
    lines: o.lines.map((l, j) => ({ ...l, line: j + 1 }))
  }))
)

const arbStrategy = fc.record({
  pickType: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
  today: fc.constantFrom(...dates)
}).map((s): AllocationStrategy => ({
  ...s,
  waveId: 7,
  pickTypeDescription: "Per order",
  defaultDock: "DOCK"
}))

const key = (c: { client_id: string | null; sku_id: string }) => `${c.client_id}/${c.sku_id}`

describe("allocation", () => {
  it.prop(
    "never allocates more than is available, nor expired stock",
    [arbOrders, arbStock, arbStrategy],
    ([orders, stock, strategy]) => {
      const plan = allocate(orders, stock, strategy)
      for (const [contentId, qty] of plan.allocatedByContent) {
        const content = stock.find((c) => c.content_id === contentId)!
        assert.isTrue(isAllocatable(content, strategy.today))
        assert.isAtMost(qty, content.qty - content.qty_allocated - content.qty_tasked_from)
      }
      const byContent = new Map<number, number>()
      for (const claim of plan.claims) {
        byContent.set(
          claim.content_id,
          (byContent.get(claim.content_id) ?? 0) + claim.qty
        )
      }
      assert.deepStrictEqual(byContent, new Map(plan.allocatedByContent))
    }
  )

  it.prop("takes stock first expiry first out: a later content is used only once the earlier ones are empty", [
    arbOrders,
    arbStock,
    arbStrategy
  ], ([orders, stock, strategy]) => {
    const plan = allocate(orders, stock, strategy)
    const usable = stock.filter((c) => isAllocatable(c, strategy.today)).sort(compareStock)
    for (const content of usable) {
      if ((plan.allocatedByContent.get(content.content_id) ?? 0) === 0) continue
      for (const earlier of usable) {
        if (key(earlier) !== key(content) || compareStock(earlier, content) >= 0) continue
        const free = earlier.qty - earlier.qty_allocated - earlier.qty_tasked_from
        assert.strictEqual(plan.allocatedByContent.get(earlier.content_id) ?? 0, free)
      }
    }
  })

  it.prop("a line gets at most its quantity, from its own SKU and client, and is short only when stock ran out", [
    arbOrders,
    arbStock,
    arbStrategy
  ], ([orders, stock, strategy]) => {
    const plan = allocate(orders, stock, strategy)
    for (const order of orders) {
      for (const line of order.lines) {
        const claims = plan.claims.filter((c) => c.order_ref === order.order_ref && c.line_id === line.line)
        const total = claims.reduce((sum, c) => sum + c.qty, 0)
        assert.isAtMost(total, line.qty)
        assert.strictEqual(new Set(claims.map((c) => c.content_id)).size, claims.length)
        for (const claim of claims) {
          const content = stock.find((c) => c.content_id === claim.content_id)!
          assert.strictEqual(key(content), key({ client_id: order.client_id, sku_id: line.sku_id }))
          assert.strictEqual(claim.to_loc_id, order.ship_dock ?? "DOCK")
          assert.strictEqual(claim.from_loc_id, content.loc_id)
        }
        if (total < line.qty) {
          for (const content of stock.filter((c) => key(c) === key({ ...order, sku_id: line.sku_id }))) {
            if (!isAllocatable(content, strategy.today)) continue
            const free = content.qty - content.qty_allocated - content.qty_tasked_from
            assert.strictEqual(plan.allocatedByContent.get(content.content_id) ?? 0, free)
          }
        }
      }
    }
  })

  it.prop(
    "order statuses and claimsets follow the plan",
    [arbOrders, arbStock, arbStrategy],
    ([orders, stock, strategy]) => {
      const plan = allocate(orders, stock, strategy)
      for (const order of orders) {
        const ordered = order.lines.reduce((sum, l) => sum + l.qty, 0)
        const got = plan.claims.filter((c) => c.order_ref === order.order_ref).reduce((sum, c) => sum + c.qty, 0)
        assert.strictEqual(plan.orderStatuses.get(order.order_ref), got === 0 ? 14 : got === ordered ? 15 : 16)
      }
      assert.strictEqual(new Set(plan.claimsets.map((s) => s.claimset_break)).size, plan.claimsets.length)
      for (const claim of plan.claims) {
        const order = orders.find((o) => o.order_ref === claim.order_ref)!
        const expected =
          [order.order_id, "7", order.customer_name ?? "(geen klant)", order.carrier_name ?? "(geen vervoerder)"][
            strategy.pickType - 1
          ]
        assert.strictEqual(plan.claimsets[claim.claimset].claimset_break, expected)
      }
    }
  )

  it("serves orders by ship-by date, then order date, then order id", () => {
    const stock: Array<StockToAllocate> = [{
      content_id: 1,
      sku_id: "A",
      client_id: null,
      loc_id: "L",
      tag_id: "T",
      expiry_date: null,
      created_at: "2029-01-01T00:00:00.000Z",
      qty: 1,
      qty_allocated: 0,
      qty_tasked_from: 0
    }]
    const order = (order_ref: number, order_id: string, ship_by_date: string | null, order_date: string | null) => ({
      order_ref,
      order_id,
      client_id: null,
      order_date,
      ship_by_date,
      ship_dock: null,
      customer_name: null,
      carrier_name: null,
      lines: [{ line: 1, sku_id: "A", qty: 1 }]
    })
    const strategy: AllocationStrategy = {
      waveId: 1,
      pickType: 2,
      pickTypeDescription: "Per wave",
      today: "2030-01-01",
      defaultDock: "DOCK"
    }
    const winner = (orders: Array<OrderToAllocate>) => allocate(orders, stock, strategy).claims[0].order_id
    assert.strictEqual(winner([order(1, "B", null, null), order(2, "A", "2030-02-01", null)]), "A")
    assert.strictEqual(
      winner([order(1, "B", "2030-02-01", "2030-01-02"), order(2, "A", "2030-02-01", "2030-01-03")]),
      "B"
    )
    assert.strictEqual(
      winner([order(1, "B", "2030-02-01", "2030-01-02"), order(2, "A", "2030-02-01", "2030-01-02")]),
      "A"
    )
  })
})
