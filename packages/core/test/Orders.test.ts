import { assert, describe, it } from "@effect/vitest"
import {
  Client,
  ClientId,
  type NewOrder,
  type NewOrderLine,
  OrderAllocations,
  OrderRepository,
  type OrderRow,
  Orders,
  Site,
  SiteId,
  SiteRepository,
  type StoredOrder,
  toOrder
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import type { Context } from "effect"
import { Effect, Layer, Option } from "effect"
import { failure, siteActor } from "./Fixtures.js"

type Repository = Context.Tag.Service<OrderRepository>

const header = (fields: Partial<OrderRow> = {}): OrderRow => ({
  ref: 7,
  order_id: "SO-1",
  client_id: null,
  order_date: null,
  status_id: 14,
  customer_id: null,
  customer_name: null,
  customer_town: null,
  ship_by_date: null,
  carrier_name: null,
  ship_dock: null,
  created_at: "2030-01-02T03:04:05.000Z",
  created_by: "user-1",
  backorder_of: null,
  to_site: null,
  ...fields
})

const stored = (fields: Partial<OrderRow> = {}, lines: StoredOrder["lines"] = []): StoredOrder => ({
  header: header(fields),
  lines
})

const line = (n: number, sku_id = "A", qty = 1) => ({
  line: n,
  sku_id,
  qty,
  qty_picked: 0,
  qty_shipped: 0,
  qty_backordered: 0
})

/** The repository of a site that has one order, `SO-1` (ref 7), in `status`, with lines 1 and 2. */
const oneOrder = (status: number, more: Partial<Repository> = {}): Partial<Repository> => ({
  find: (_, orderId) =>
    Effect.succeed(orderId === "SO-1" ? Option.some(stored({ status_id: status }, [line(1), line(2)])) : Option.none()),
  lock: () => Effect.succeed(Option.some(status)),
  visibleSkus: (_, skuIds) => Effect.succeed(new Set(skuIds.filter((sku) => sku !== "NOPE"))),
  ...more
})

type Allocations = Context.Tag.Service<OrderAllocations>

/** The sites: `north`, and `c9`, a client of `F`. */
const sites: Partial<Context.Tag.Service<SiteRepository>> = {
  findTarget: (id) =>
    Effect.succeed(
      id === "north"
        ? Option.some({
          _tag: "Site",
          site: new Site({ site_id: SiteId.make("north"), name: "North", fulfillment: false })
        })
        : id === "c9"
        ? Option.some({
          _tag: "Client",
          site: new Site({ site_id: SiteId.make("F"), name: "F", fulfillment: true }),
          client: new Client({ client_id: ClientId.make("c9"), site_id: SiteId.make("F"), name: "C9" })
        })
        : Option.none()
    )
}

const ordersOn = (log: CallLog, repository: Partial<Repository>, allocations: Partial<Allocations> = {}) =>
  Orders.Default.pipe(Layer.provide([
    makeTestLayer(OrderRepository)(repository, log),
    makeTestLayer(OrderAllocations)(allocations, log),
    makeTestLayer(SiteRepository)(sites, log),
    testTransactor(log)
  ]))

/** Runs `f` on an `Orders` service whose ports are the stubs given, logging to `log`. */
const withOrders = <A, E>(
  log: CallLog,
  repository: Partial<Repository>,
  f: (orders: Orders) => Effect.Effect<A, E>,
  allocations: Partial<Allocations> = {}
) => Effect.flatMap(Orders, f).pipe(Effect.provide(ordersOn(log, repository, allocations)))

const newOrder = (fields: Partial<NewOrder> = {}): NewOrder => ({ order_id: "SO-1", ...fields })

describe("Orders", () => {
  it.effect("a transfer order is an admin's, checked as any order first, then its destination; it keeps to_site", () =>
    Effect.gen(function*() {
      const admin = { ...siteActor, admin: true }
      const repository: Partial<Repository> = {
        visibleSkus: (scope, skuIds) =>
          Effect.succeed(new Set(skuIds.filter((sku) => sku !== "NOPE" && (scope.site_id === "main" || sku === "A")))),
        insert: () => Effect.succeed(Option.some(7)),
        insertLines: () => Effect.succeed([])
      }
      const create = (actor: typeof siteActor, fields: Partial<NewOrder>, log = new CallLog()) =>
        failure(withOrders(log, repository, (orders) => orders.createOrder(actor, newOrder(fields))))
      const lines = [{ sku_id: "A", qty: 1 }]
      const forbidden = new CallLog()
      assert.deepStrictEqual(yield* create(siteActor, { to_site: "north", lines }, forbidden), [
        "Forbidden",
        "Admin rights required"
      ])
      assert.deepStrictEqual(forbidden.methods, ["Transactor.begin", "Transactor.rollback"])
      // A SKU missing at the order's own site is the 400 of any order, before the destination is read.
      assert.deepStrictEqual(
        yield* create(admin, { to_site: "nowhere", lines: [{ sku_id: "NOPE", qty: 1 }] }),
        [
          "InvalidInput",
          "Invalid field lines.0.sku_id: sku NOPE does not exist"
        ].map((x, i) => i === 0 ? x : x)
      )
      assert.deepStrictEqual(yield* create(admin, { to_site: "nowhere", lines }), [
        "SiteNotFound",
        "Site with id nowhere not found"
      ])
      assert.deepStrictEqual(yield* create(admin, { to_site: "c9", lines }), [
        "InvalidInput",
        "Invalid field to_site: c9 is a client of site F, not a site"
      ])
      assert.deepStrictEqual(yield* create(admin, { to_site: "north", lines: [{ sku_id: "B", qty: 1 }] }), [
        "TransferSkuMissing",
        "SKU B does not exist at site north, the transfer's destination"
      ])
      const log = new CallLog()
      yield* withOrders(log, repository, (orders) => orders.createOrder(admin, newOrder({ to_site: "north", lines })))
      assert.deepStrictEqual(
        log.argsOf("OrderRepository.insert").map(([row]) => (row as { to_site: string }).to_site),
        [
          "north"
        ]
      )
    }))

  it.effect("create checks customer, carrier and SKUs, then inserts a Released order of the scope, lines after", () => {
    const log = new CallLog()
    const repository: Partial<Repository> = {
      customerVisible: () => Effect.succeed(true),
      carrierVisible: () => Effect.succeed(true),
      visibleSkus: (_, skuIds) => Effect.succeed(new Set(skuIds)),
      insert: () => Effect.succeed(Option.some(7)),
      insertLines: () => Effect.succeed([])
    }
    const lines: ReadonlyArray<NewOrderLine> = [{ sku_id: "A", qty: 3 }, { sku_id: "B", qty: 1, line: 1 }, {
      sku_id: "A",
      qty: 2
    }]
    return Effect.gen(function*() {
      yield* withOrders(log, repository, (orders) =>
        orders.create(
          siteActor,
          newOrder({
            customer_id: 4,
            carrier_id: 5,
            order_date: "2030-03-01",
            ship_dock: "  ",
            lines
          })
        ))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.customerVisible",
        "OrderRepository.carrierVisible",
        "OrderRepository.visibleSkus",
        "OrderRepository.insert",
        "OrderRepository.insertLines",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("OrderRepository.visibleSkus"), [[siteActor.scope, ["A", "B"]]])
      assert.deepStrictEqual(log.argsOf("OrderRepository.insert"), [[{
        owner: { site_id: "main", client_id: null },
        order_id: "SO-1",
        status_id: 14,
        customer_id: 4,
        order_date: "2030-03-01",
        ship_by_date: null,
        carrier_id: 5,
        // A blank dock is no dock.
        ship_dock: null,
        created_at: "1970-01-01T00:00:00.000Z",
        created_by: "user-1",
        to_site: null
      }]])
      // Lines without a number come after the highest given: 1 is taken, so 2 and 3.
      assert.deepStrictEqual(log.argsOf("OrderRepository.insertLines"), [[7, [
        { line: 2, sku_id: "A", qty: 3 },
        { line: 1, sku_id: "B", qty: 1 },
        { line: 3, sku_id: "A", qty: 2 }
      ]]])
    })
  })

  it.effect("create names the first missing reference, customer, carrier, then a line's SKU, and inserts nothing", () =>
    Effect.gen(function*() {
      const lines = [{ sku_id: "A", qty: 1 }, { sku_id: "NOPE", qty: 1 }]
      const attempt = (customer: boolean, carrier: boolean) => {
        const log = new CallLog()
        return Effect.map(
          failure(withOrders(
            log,
            oneOrder(14, {
              customerVisible: () => Effect.succeed(customer),
              carrierVisible: () => Effect.succeed(carrier)
            }),
            (orders) => orders.create(siteActor, newOrder({ customer_id: 4, carrier_id: 5, lines }))
          )),
          (error) => [...error, log.methods.at(-1), log.methods.includes("OrderRepository.insert")]
        )
      }
      assert.deepStrictEqual(yield* attempt(false, false), [
        "InvalidInput",
        "Invalid field customer_id: customer 4 does not exist",
        "Transactor.rollback",
        false
      ])
      assert.deepStrictEqual(yield* attempt(true, false), [
        "InvalidInput",
        "Invalid field carrier_id: carrier 5 does not exist",
        "Transactor.rollback",
        false
      ])
      assert.deepStrictEqual(yield* attempt(true, true), [
        "InvalidInput",
        "Invalid field lines.1.sku_id: sku NOPE does not exist",
        "Transactor.rollback",
        false
      ])
    }))

  it.effect("create of an order id in use is a 409 and writes no line", () => {
    const log = new CallLog()
    const repository = oneOrder(14, { insert: () => Effect.succeed(Option.none()) })
    return Effect.gen(function*() {
      const lines = [{ sku_id: "A", qty: 1 }]
      assert.deepStrictEqual(
        yield* failure(withOrders(log, repository, (orders) => orders.create(siteActor, newOrder({ lines })))),
        ["OrderExists", "Order with OrderID SO-1 already exists"]
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.visibleSkus",
        "OrderRepository.insert",
        "Transactor.rollback"
      ])
    })
  })

  it.effect("a line number in use or given twice is a 409 before anything is written", () =>
    Effect.gen(function*() {
      const attempt = (f: (orders: Orders) => Effect.Effect<void, { _tag: string; message: string }>) => {
        const log = new CallLog()
        const repository = oneOrder(14, {
          lineNumbers: () => Effect.succeed([1, 2]),
          insert: () => Effect.succeed(Option.some(8))
        })
        return Effect.map(
          failure(withOrders(log, repository, f)),
          (error) => [...error, log.methods.some((method) => method.startsWith("OrderRepository.insert"))]
        )
      }
      const twice = [{ sku_id: "A", qty: 1, line: 4 }, { sku_id: "B", qty: 1, line: 4 }]
      assert.deepStrictEqual(
        yield* attempt((orders) => orders.create(siteActor, newOrder({ order_id: "SO-2", lines: twice }))),
        ["OrderLineExists", "Line 4 of order SO-2 already exists", false]
      )
      assert.deepStrictEqual(
        yield* attempt((orders) => orders.addLines(siteActor, "SO-1", { sku_id: "B", qty: 1, line: 2 })),
        ["OrderLineExists", "Line 2 of order SO-1 already exists", false]
      )
      assert.deepStrictEqual(
        yield* attempt((orders) =>
          orders.addLines(siteActor, "SO-1", [{ sku_id: "B", qty: 1 }, { sku_id: "B", qty: 1, line: 7 }, {
            sku_id: "A",
            qty: 1,
            line: 7
          }])
        ),
        ["OrderLineExists", "Line 7 of order SO-1 already exists", false]
      )
    }))

  it.effect("a line number another writer took meanwhile is a 409, never a defect", () => {
    const log = new CallLog()
    const repository = oneOrder(14, {
      lineNumbers: () => Effect.succeed([1, 2]),
      insertLines: (_, lines) => Effect.succeed(lines.map((l) => l.line))
    })
    return Effect.gen(function*() {
      assert.deepStrictEqual(
        yield* failure(
          withOrders(log, repository, (orders) => orders.addLines(siteActor, "SO-1", { sku_id: "A", qty: 1 }))
        ),
        ["OrderLineExists", "Line 3 of order SO-1 already exists"]
      )
      assert.strictEqual(log.methods.at(-1), "Transactor.rollback")
    })
  })

  it.effect("addLines numbers lines without a number after the highest in use or given, in the order given", () => {
    const log = new CallLog()
    const repository = oneOrder(14, {
      lineNumbers: () => Effect.succeed([2]),
      insertLines: () => Effect.succeed([])
    })
    return Effect.gen(function*() {
      yield* withOrders(log, repository, (orders) =>
        orders.addLines(siteActor, "SO-1", [
          { sku_id: "C", qty: 1 },
          { sku_id: "A", qty: 2, line: 10 },
          { sku_id: "B", qty: 3 },
          { sku_id: "A", qty: 4, line: 1 }
        ]))
      assert.deepStrictEqual(log.argsOf("OrderRepository.insertLines"), [[7, [
        { line: 11, sku_id: "C", qty: 1 },
        { line: 10, sku_id: "A", qty: 2 },
        { line: 12, sku_id: "B", qty: 3 },
        { line: 1, sku_id: "A", qty: 4 }
      ]]])
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.visibleSkus",
        "OrderRepository.find",
        "OrderRepository.lock",
        "OrderRepository.lineNumbers",
        "OrderRepository.insertLines",
        "Transactor.commit"
      ])
    })
  })

  it.effect("with no line number left to generate, addLines is a 409", () =>
    Effect.gen(function*() {
      const repository = oneOrder(14, { lineNumbers: () => Effect.succeed([2147483647]) })
      assert.deepStrictEqual(
        yield* failure(
          withOrders(new CallLog(), repository, (orders) => orders.addLines(siteActor, "SO-1", { sku_id: "A", qty: 1 }))
        ),
        ["OrderLineNumbersExhausted", "Order with OrderID SO-1 has no line number left"]
      )
    }))

  it.effect("lines of an order that is not Released cannot be added, changed or deleted: 409, nothing written", () =>
    Effect.gen(function*() {
      const conflict = [
        "OrderNotReleased",
        "Order with OrderID SO-1 is In Progress: its lines can change only while it is Released"
      ]
      const writes: ReadonlyArray<(orders: Orders) => Effect.Effect<void, { _tag: string; message: string }>> = [
        (orders) => orders.addLines(siteActor, "SO-1", { sku_id: "B", qty: 1 }),
        (orders) => orders.updateLine(siteActor, "SO-1", 1, { sku_id: "B", qty: 5 }),
        (orders) => orders.removeLine(siteActor, "SO-1", 1)
      ]
      for (const write of writes) {
        const log = new CallLog()
        assert.deepStrictEqual(yield* failure(withOrders(log, oneOrder(17), write)), conflict)
        assert.deepStrictEqual(log.methods.slice(-2), ["OrderRepository.lock", "Transactor.rollback"])
      }
    }))

  it.effect("a missing line is a 404 before the order's status is looked at", () =>
    Effect.gen(function*() {
      const notFound = ["OrderLineNotFound", "Line 3 of order SO-1 not found"]
      const log = new CallLog()
      assert.deepStrictEqual(
        yield* failure(
          withOrders(log, oneOrder(17), (orders) => orders.updateLine(siteActor, "SO-1", 3, { sku_id: "A", qty: 1 }))
        ),
        notFound
      )
      assert.deepStrictEqual(
        yield* failure(withOrders(log, oneOrder(17), (orders) => orders.removeLine(siteActor, "SO-1", 3))),
        notFound
      )
      assert.deepStrictEqual(
        yield* failure(withOrders(log, oneOrder(14), (orders) => orders.getLine(siteActor, "SO-1", 3))),
        notFound
      )
      assert.isFalse(log.methods.includes("OrderRepository.lock"))
    }))

  it.effect("addLines checks the SKUs before the order: an unknown SKU is a 400 before a missing order is a 404", () =>
    Effect.gen(function*() {
      const addLines = (lines: NewOrderLine | ReadonlyArray<NewOrderLine>) =>
        failure(withOrders(new CallLog(), oneOrder(14), (orders) => orders.addLines(siteActor, "NONE", lines)))
      assert.deepStrictEqual(yield* addLines({ sku_id: "NOPE", qty: 1 }), [
        "InvalidInput",
        "Invalid field sku_id: sku NOPE does not exist"
      ])
      assert.deepStrictEqual(yield* addLines([{ sku_id: "A", qty: 1 }, { sku_id: "NOPE", qty: 1 }]), [
        "InvalidInput",
        "Invalid field 1.sku_id: sku NOPE does not exist"
      ])
      assert.deepStrictEqual(yield* addLines({ sku_id: "A", qty: 1 }), [
        "OrderNotFound",
        "Order with OrderID NONE not found"
      ])
    }))

  it.effect("update sets only the fields present, null clears one, a blank dock is none; in any status", () => {
    const log = new CallLog()
    const repository = oneOrder(15, { update: () => Effect.succeed(true) })
    return Effect.gen(function*() {
      yield* withOrders(
        log,
        repository,
        (orders) => orders.update(siteActor, "SO-1", { customer_id: null, ship_by_date: "2030-04-01", ship_dock: " " })
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.find",
        "OrderRepository.update",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("OrderRepository.update"), [[7, {
        customer_id: null,
        ship_by_date: "2030-04-01",
        ship_dock: null
      }]])
    })
  })

  it.effect("update checks the references before the order: 400 before 404; an order gone meanwhile is a 404", () =>
    Effect.gen(function*() {
      const repository = oneOrder(14, {
        customerVisible: () => Effect.succeed(false),
        carrierVisible: () => Effect.succeed(false),
        update: () => Effect.succeed(false)
      })
      const update = (orderId: string, changes: Parameters<Orders["update"]>[2]) =>
        failure(withOrders(new CallLog(), repository, (orders) => orders.update(siteActor, orderId, changes)))
      assert.deepStrictEqual(yield* update("NONE", { customer_id: 4 }), [
        "InvalidInput",
        "Invalid field customer_id: customer 4 does not exist"
      ])
      assert.deepStrictEqual(yield* update("NONE", { carrier_id: 5 }), [
        "InvalidInput",
        "Invalid field carrier_id: carrier 5 does not exist"
      ])
      const notFound = (orderId: string) => ["OrderNotFound", `Order with OrderID ${orderId} not found`]
      assert.deepStrictEqual(yield* update("NONE", { ship_dock: "D" }), notFound("NONE"))
      assert.deepStrictEqual(yield* update("SO-1", { ship_dock: "D" }), notFound("SO-1"))
    }))

  it.effect("remove of a Released order removes it, releasing nothing", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* withOrders(log, oneOrder(14, { remove: () => Effect.void }), (orders) => orders.remove(siteActor, "SO-1"))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.find",
        "OrderRepository.lock",
        "OrderRepository.remove",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("OrderRepository.remove"), [[7]])
    })
  })

  it.effect("remove of an allocated order gives its allocation back first, in the same transaction", () =>
    Effect.gen(function*() {
      for (const status of [15, 16]) {
        const log = new CallLog()
        yield* withOrders(
          log,
          oneOrder(status, { remove: () => Effect.void }),
          (orders) => orders.remove(siteActor, "SO-1"),
          { release: () => Effect.void }
        )
        assert.deepStrictEqual(log.methods, [
          "Transactor.begin",
          "OrderRepository.find",
          "OrderRepository.lock",
          "OrderAllocations.release",
          "OrderRepository.remove",
          "Transactor.commit"
        ])
        assert.deepStrictEqual(log.argsOf("OrderAllocations.release"), [["SO-1", 7]])
      }
    }))

  it.effect("once picking has started an order cannot be removed: 409 naming its status, and it stays", () =>
    Effect.gen(function*() {
      for (const [status, description] of [[17, "In Progress"], [18, "Picked"], [19, "Shipped"]] as const) {
        const log = new CallLog()
        assert.deepStrictEqual(
          yield* failure(withOrders(log, oneOrder(status), (orders) => orders.remove(siteActor, "SO-1"))),
          [
            "OrderNotDeletable",
            `Order with OrderID SO-1 is ${description}: it can be deleted only until picking starts`
          ]
        )
        assert.deepStrictEqual(log.methods.slice(-2), ["OrderRepository.lock", "Transactor.rollback"])
      }
    }))

  it.effect("remove of a missing order, or of one gone before its lock, is a 404", () =>
    Effect.gen(function*() {
      const gone = oneOrder(14, { lock: () => Effect.succeed(Option.none()) })
      assert.deepStrictEqual(
        yield* failure(withOrders(new CallLog(), gone, (orders) => orders.remove(siteActor, "NONE"))),
        ["OrderNotFound", "Order with OrderID NONE not found"]
      )
      assert.deepStrictEqual(
        yield* failure(withOrders(new CallLog(), gone, (orders) => orders.remove(siteActor, "SO-1"))),
        ["OrderNotFound", "Order with OrderID SO-1 not found"]
      )
    }))

  it.effect("get shows the stored order as §2.2 does: its status described, its customer with the town", () =>
    Effect.gen(function*() {
      const order = stored(
        { status_id: 16, customer_id: 4, customer_name: "Jansen", customer_town: "Utrecht" },
        [line(1)]
      )
      const shown = yield* withOrders(
        new CallLog(),
        { find: () => Effect.succeed(Option.some(order)) },
        (orders) => orders.get(siteActor, "SO-1")
      )
      assert.deepStrictEqual(shown, toOrder(order, "UTC"))
      assert.deepStrictEqual(
        [shown.order_status, shown.order_status_description, shown.customer, shown.creation_datetime],
        [
          { id: 16, description: "Partially Allocated" },
          "Partially Allocated",
          { id: 4, name: "Jansen, Utrecht" },
          "2030-01-02 03:04:05"
        ]
      )
      assert.deepStrictEqual(shown.lines, [
        { order_id: "SO-1", line: 1, sku_id: "A", qty: 1, qty_picked: 0, qty_shipped: 0 }
      ])
    }))

  it.effect("get shows a line's backordered quantity and a backorder's first order only when there are some", () =>
    Effect.gen(function*() {
      const order = stored({ backorder_of: "SO-0" }, [line(1), { ...line(2), qty_picked: 1, qty_backordered: 2 }])
      const shown = yield* withOrders(
        new CallLog(),
        { find: () => Effect.succeed(Option.some(order)) },
        (orders) => orders.get(siteActor, "SO-1")
      )
      assert.strictEqual(shown.backorder_of, "SO-0")
      assert.deepStrictEqual(shown.lines.map((l) => Object.keys(l).includes("qty_backordered")), [false, true])
      assert.strictEqual(shown.lines[1].qty_backordered, 2)
    }))
})
