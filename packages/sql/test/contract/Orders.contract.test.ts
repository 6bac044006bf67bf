/**
 * The contract of `OrderRepository` on both stores.
 */
import { assert } from "@effect/vitest"
import { OrderRepository, type StoredOrder } from "@wms/core"
import { Effect, Option } from "effect"
import {
  insertCarrier,
  insertOrder,
  insertPartner,
  insertSkus,
  makeTenants,
  onEachStore,
  waitsForCommit
} from "./Contract.js"

const line = (n: number, sku_id: string, qty: number) => ({
  line: n,
  sku_id,
  qty,
  qty_picked: 0,
  qty_shipped: 0,
  qty_backordered: 0
})

onEachStore("OrderRepository", (it) => {
  it.effect("inserts an order once per site and yields its key as a number", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const order = {
        owner: t.client1.owner,
        order_id: "O-1",
        status_id: 14,
        created_at: "2030-01-01T00:00:00.000Z",
        created_by: "u1",
        customer_id: null,
        order_date: null,
        ship_by_date: null,
        carrier_id: null,
        ship_dock: null,
        to_site: null
      }
      const ref = Option.getOrThrow(yield* orders.insert(order))
      assert.strictEqual(typeof ref, "number")
      // Taken on the site, whichever client asks.
      assert.isTrue(Option.isNone(yield* orders.insert(order)))
      assert.isTrue(Option.isNone(yield* orders.insert({ ...order, owner: t.client2.owner })))
      const onOtherSite = Option.getOrThrow(yield* orders.insert({ ...order, owner: t.other.owner }))
      assert.notStrictEqual(onOtherSite, ref)
      assert.isTrue(Option.isSome(yield* orders.insert({ ...order, order_id: "o-1" })))
    }))

  it.effect("finds and lists the orders a scope sees, with the values' own types and names, lines by number", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const customer = yield* insertPartner("customer", t.client1.owner, "Customer", "Town")
      const carrier = yield* insertCarrier(t.site.owner.site_id, "Carrier")
      const ref = yield* insertOrder(t.client1.owner, "O-1", [], {
        status_id: 15,
        customer_id: customer,
        carrier_id: carrier,
        order_date: "2030-01-02",
        ship_by_date: "2030-01-09",
        ship_dock: ""
      })
      yield* orders.insertLines(ref, [
        { line: 3, sku_id: "it's \"quoted\" — ünïcode", qty: 2147483647 },
        { line: 1, sku_id: "A", qty: 1 },
        { line: 20, sku_id: "123", qty: 5 }
      ])
      const bare = yield* insertOrder(t.site.owner, "O-2", [])
      yield* insertOrder(t.other.owner, "O-1", [["A", 1]])

      const stored: StoredOrder = {
        header: {
          ref,
          order_id: "O-1",
          client_id: t.client1.owner.client_id,
          order_date: "2030-01-02",
          status_id: 15,
          customer_id: customer,
          customer_name: "Customer",
          customer_town: "Town",
          ship_by_date: "2030-01-09",
          carrier_name: "Carrier",
          ship_dock: "",
          created_at: "2030-01-01T08:00:00.000Z",
          created_by: "tester",
          backorder_of: null,
          to_site: null
        },
        lines: [line(1, "A", 1), line(3, "it's \"quoted\" — ünïcode", 2147483647), line(20, "123", 5)]
      }
      const bareStored: StoredOrder = {
        header: {
          ref: bare,
          order_id: "O-2",
          client_id: null,
          order_date: null,
          status_id: 14,
          customer_id: null,
          customer_name: null,
          customer_town: null,
          ship_by_date: null,
          carrier_name: null,
          ship_dock: null,
          created_at: "2030-01-01T08:00:00.000Z",
          created_by: "tester",
          backorder_of: null,
          to_site: null
        },
        lines: []
      }
      // Read alone, an order has its shipping units (none here); in a list it has no `units`.
      assert.deepStrictEqual(yield* orders.find(t.site.scope, "O-1"), Option.some({ ...stored, units: [] }))
      assert.deepStrictEqual(yield* orders.find(t.client1.scope, "O-1"), Option.some({ ...stored, units: [] }))
      assert.isTrue(Option.isNone(yield* orders.find(t.client2.scope, "O-1")))
      assert.isTrue(Option.isNone(yield* orders.find(t.client1.scope, "O-2")))
      assert.deepStrictEqual(yield* orders.find(t.site.scope, "O-2"), Option.some({ ...bareStored, units: [] }))
      assert.isTrue(Option.isNone(yield* orders.find(t.site.scope, "o-1")))

      assert.deepStrictEqual(yield* orders.list(t.site.scope, true), [stored, bareStored])
      assert.deepStrictEqual(yield* orders.list(t.site.scope, false), [{ ...stored, lines: [] }, bareStored])
      assert.deepStrictEqual(yield* orders.list(t.client1.scope, true), [stored])
      assert.deepStrictEqual(yield* orders.list(t.client2.scope, true), [])
    }))

  it.effect("finds many orders by key, in key order, with their lines", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const first = yield* insertOrder(t.client1.owner, "M-1", [["A", 1], ["B", 2]])
      const second = yield* insertOrder(t.other.owner, "M-2", [["C", 3]])
      const found = yield* orders.findMany([second, 999_999, first])
      assert.deepStrictEqual(found.map((order) => order.header.ref), [first, second])
      assert.deepStrictEqual(found[0].lines, [line(1, "A", 1), line(2, "B", 2)])
      assert.deepStrictEqual(found[1], Option.getOrThrow(yield* orders.find(t.other.scope, "M-2")))
      assert.deepStrictEqual(yield* orders.findMany([]), [])
    }))

  it.effect("inserts only free line numbers and says which were taken", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const ref = yield* insertOrder(t.site.owner, "L-1", [])
      const other = yield* insertOrder(t.site.owner, "L-2", [["A", 1]])
      assert.deepStrictEqual(yield* orders.insertLines(ref, []), [])
      const write = (line: number, sku_id: string, qty: number) => ({ line, sku_id, qty })
      assert.deepStrictEqual(yield* orders.insertLines(ref, [write(1, "A", 3), write(2, "B", 1)]), [])
      const taken = yield* orders.insertLines(ref, [write(3, "A", 5), write(2, "A", 7), write(1, "C", 1)])
      assert.deepStrictEqual(taken, [2, 1])
      assert.deepStrictEqual([...yield* orders.lineNumbers(ref)].sort(), [1, 2, 3])
      const stored = Option.getOrThrow(yield* orders.find(t.site.scope, "L-1"))
      assert.deepStrictEqual(stored.lines, [line(1, "A", 3), line(2, "B", 1), line(3, "A", 5)])
      assert.deepStrictEqual(yield* orders.lineNumbers(other), [1])
      assert.deepStrictEqual(yield* orders.lineNumbers(999_999), [])
    }))

  it.effect("updates the header fields given and the lines, saying when there is none", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const customer = yield* insertPartner("customer", t.site.owner, "Customer")
      const ref = yield* insertOrder(t.site.owner, "U-1", [["A", 1], ["B", 2]], {
        ship_dock: "D1",
        order_date: "2030-02-01"
      })
      assert.isTrue(yield* orders.update(ref, {}))
      assert.isTrue(yield* orders.update(ref, { customer_id: customer, ship_dock: null, ship_by_date: "2030-03-01" }))
      const { header } = Option.getOrThrow(yield* orders.find(t.site.scope, "U-1"))
      assert.deepStrictEqual(
        [header.customer_id, header.customer_name, header.ship_dock, header.ship_by_date, header.order_date],
        [customer, "Customer", null, "2030-03-01", "2030-02-01"]
      )
      assert.isFalse(yield* orders.update(999_999, {}))
      assert.isFalse(yield* orders.update(999_999, { ship_dock: "D" }))

      assert.isTrue(yield* orders.updateLine(ref, { line: 2, sku_id: "C", qty: 9 }))
      assert.isFalse(yield* orders.updateLine(ref, { line: 5, sku_id: "C", qty: 9 }))
      assert.isTrue(yield* orders.removeLine(ref, 1))
      assert.isFalse(yield* orders.removeLine(ref, 1))
      assert.deepStrictEqual(Option.getOrThrow(yield* orders.find(t.site.scope, "U-1")).lines, [line(2, "C", 9)])
    }))

  it.effect("removes an order with all its lines", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const ref = yield* insertOrder(t.site.owner, "R-1", [["A", 1], ["B", 2]])
      const kept = yield* insertOrder(t.site.owner, "R-2", [["A", 1]])
      yield* orders.remove(ref)
      assert.isTrue(Option.isNone(yield* orders.find(t.site.scope, "R-1")))
      assert.deepStrictEqual(yield* orders.lineNumbers(ref), [])
      assert.deepStrictEqual(yield* orders.lineNumbers(kept), [1])
      // The id is free again.
      assert.isTrue(Option.isSome(
        yield* orders.insert({
          owner: t.site.owner,
          order_id: "R-1",
          status_id: 14,
          created_at: "2030-01-01T00:00:00.000Z",
          created_by: "u1",
          customer_id: null,
          order_date: null,
          ship_by_date: null,
          carrier_id: null,
          ship_dock: null,
          to_site: null
        })
      ))
    }))

  it.effect("locks an order, yielding its status: a second locker waits and sees the first's change", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const ref = yield* insertOrder(t.site.owner, "K-1", [["A", 1]])
      assert.deepStrictEqual(yield* orders.lock(ref), Option.some(14))
      assert.isTrue(Option.isNone(yield* orders.lock(999_999)))
      const seen = yield* waitsForCommit(
        Effect.zipRight(orders.lock(ref), orders.update(ref, { ship_dock: "held" })),
        orders.lock(ref)
      )
      assert.deepStrictEqual(seen, Option.some(14))
      // A removed order is gone for the waiter too.
      const gone = yield* waitsForCommit(Effect.zipRight(orders.lock(ref), orders.remove(ref)), orders.lock(ref))
      assert.isTrue(Option.isNone(gone))
    }))

  it.effect("sees customers by scope, carriers by site and SKUs by scope", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const customer = yield* insertPartner("customer", t.client1.owner, "Customer")
      const siteCustomer = yield* insertPartner("customer", t.site.owner, "Site's")
      const carrier = yield* insertCarrier(t.site.owner.site_id, "Carrier")
      yield* insertSkus(t.client1.owner, ["A", "B"])
      yield* insertSkus(t.client2.owner, ["C"])
      yield* insertSkus(t.site.owner, ["D"])
      yield* insertSkus(t.other.owner, ["E"])

      assert.isTrue(yield* orders.customerVisible(t.site.scope, customer))
      assert.isTrue(yield* orders.customerVisible(t.client1.scope, customer))
      assert.isFalse(yield* orders.customerVisible(t.client2.scope, customer))
      assert.isFalse(yield* orders.customerVisible(t.other.scope, customer))
      assert.isFalse(yield* orders.customerVisible(t.client1.scope, siteCustomer))
      assert.isFalse(yield* orders.customerVisible(t.site.scope, 999_999))

      assert.isTrue(yield* orders.carrierVisible(t.site.scope, carrier))
      assert.isTrue(yield* orders.carrierVisible(t.client2.scope, carrier))
      assert.isFalse(yield* orders.carrierVisible(t.other.scope, carrier))

      const asked = ["A", "C", "D", "E", "Z"]
      assert.deepStrictEqual(yield* orders.visibleSkus(t.site.scope, asked), new Set(["A", "C", "D"]))
      assert.deepStrictEqual(yield* orders.visibleSkus(t.client1.scope, ["A", "B", "C", "D", "a"]), new Set(["A", "B"]))
      assert.deepStrictEqual(yield* orders.visibleSkus(t.client1.scope, []), new Set())
      assert.deepStrictEqual(yield* orders.visibleSkus(t.other.scope, ["E", "E"]), new Set(["E"]))
    }))
})
