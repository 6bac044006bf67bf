import { assert, describe, it } from "@effect/vitest"
import { EventPublisher, OrderRepository, SiteRepository, Transactor } from "@wms/core"
import {
  arbOps,
  arbWarehouse,
  CallLog,
  checkClaims,
  checkFefo,
  checkLedger,
  checkStock,
  type ContentView,
  makeTestEventPublisher,
  makeTestLayer,
  testTransactor
} from "@wms/core/testing"
import { Cause, Effect, Exit, FastCheck as fc, Option } from "effect"
import { siteActor } from "./Fixtures.js"

const siteScope = siteActor.scope

const content = (fields: Partial<ContentView> & { readonly content_id: number }): ContentView => ({
  sku_id: "A",
  client_id: null,
  qty: 10,
  qty_allocated: 0,
  qty_tasked_from: 0,
  expiry_date: null,
  created_datetime: "2030-01-01 00:00:00",
  ...fields
})

describe("the invariant checkers of @wms/core/testing", () => {
  it("flag negative and over-allocated stock", () => {
    assert.deepStrictEqual(checkStock([content({ content_id: 1 }), content({ content_id: 2, qty_allocated: 10 })]), [])
    assert.strictEqual(checkStock([content({ content_id: 1, qty: -1 })]).length, 1)
    assert.strictEqual(checkStock([content({ content_id: 1, qty_allocated: 6, qty_tasked_from: 5 })]).length, 1)
  })

  it("flag a ledger that does not replay to the stock", () => {
    const ledger = [
      { content_id: 1, transaction_type: "Receipt" as const, qty: 12 },
      { content_id: 1, transaction_type: "Allocate" as const, qty: 5 },
      { content_id: 1, transaction_type: "Pick" as const, qty: 2 }
    ]
    assert.deepStrictEqual(checkLedger([content({ content_id: 1 })], ledger), [])
    assert.deepStrictEqual(checkLedger([content({ content_id: 1, qty: 9 })], ledger), [
      "content 1: qty 9, ledger replays to 10"
    ])
  })

  it("flag allocation that no open claim accounts for", () => {
    const claims = [{ content_id: 1, qty: 3, status: "allocated" }, { content_id: 1, qty: 4, status: "picked" }]
    assert.deepStrictEqual(checkClaims([content({ content_id: 1, qty_allocated: 3 })], claims), [])
    assert.strictEqual(checkClaims([content({ content_id: 1, qty_allocated: 7 })], claims).length, 1)
  })

  it("flag a claim on stock while earlier-expiring stock was left", () => {
    const early = content({ content_id: 1, expiry_date: "2030-02-01" })
    const late = content({ content_id: 2, expiry_date: "2030-03-01" })
    const claims = [{ content_id: 2, qty: 1, status: "allocated" }]
    assert.strictEqual(checkFefo([early, late], claims, "2030-01-15").length, 1)
    assert.deepStrictEqual(checkFefo([{ ...early, qty_allocated: 10 }, late], claims, "2030-01-15"), [])
    // Expired stock is not eligible, and no expiry comes last.
    assert.deepStrictEqual(checkFefo([early, late], claims, "2030-02-02"), [])
    const never = content({ content_id: 3 })
    const onNever = [{ content_id: 3, qty: 1, status: "allocated" }]
    assert.strictEqual(checkFefo([late, never], onNever, "2030-01-01").length, 1)
  })

  it.prop("generate warehouses whose stock and orders only name their own SKUs", [
    arbWarehouse(),
    arbOps()
  ], ([state, ops]) => {
    const skus = new Set(state.skus.map((sku) => sku.sku_id))
    assert.strictEqual(skus.size, state.skus.length)
    for (const c of state.contents) {
      assert.isTrue(skus.has(c.sku_id))
      const sku = state.skus.find((s) => s.sku_id === c.sku_id)!
      if (sku.expiry_days === null) assert.isNull(c.expiry_in_days)
    }
    for (const order of state.orders) for (const line of order.lines) assert.isTrue(skus.has(line.sku_id))
    assert.isAtMost(ops.length, 12)
  }, { fastCheck: { numRuns: 50 } })

  it("generate contents with and without expiry", () => {
    const states = fc.sample(arbWarehouse(), 200)
    const contents = states.flatMap((state) => state.contents)
    assert.isTrue(contents.some((c) => c.expiry_in_days !== null))
    assert.isTrue(contents.some((c) => c.expiry_in_days === null))
    assert.isTrue(contents.some((c) => c.expiry_in_days !== null && c.expiry_in_days < 0))
  })
})

describe("the port stubs of @wms/core/testing", () => {
  const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
    Exit.isFailure(exit) ? Cause.pretty(exit.cause).split("\n")[0] : "succeeded"

  it.effect("a test layer provides the methods given and records their calls", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      const orders = yield* OrderRepository
      assert.isTrue(yield* orders.carrierVisible(siteScope, 7))
      assert.deepStrictEqual(yield* orders.lineNumbers(3), [1, 2])
      assert.deepStrictEqual(log.calls, [
        { method: "OrderRepository.carrierVisible", args: [siteScope, 7] },
        { method: "OrderRepository.lineNumbers", args: [3] }
      ])
      assert.deepStrictEqual(log.methods, ["OrderRepository.carrierVisible", "OrderRepository.lineNumbers"])
      assert.deepStrictEqual(log.argsOf("OrderRepository.lineNumbers"), [[3]])
    }).pipe(Effect.provide(
      makeTestLayer(OrderRepository)({
        carrierVisible: () => Effect.succeed(true),
        lineNumbers: () => Effect.succeed([1, 2])
      }, log)
    ))
  })

  it.effect("a method not given dies naming itself, whether it is called or is an Effect", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const sites = yield* SiteRepository
      assert.strictEqual(
        defectOf(yield* Effect.exit(orders.lock(1))),
        "RuntimeException: OrderRepository.lock is not implemented by this test layer"
      )
      assert.strictEqual(
        defectOf(yield* Effect.exit(sites.listSites)),
        "RuntimeException: SiteRepository.listSites is not implemented by this test layer"
      )
      assert.isTrue("remove" in orders)
    }).pipe(
      Effect.provide(makeTestLayer(OrderRepository)({ find: () => Effect.succeed(Option.none()) })),
      Effect.provide(makeTestLayer(SiteRepository)({}))
    ))

  it.effect("the test transactor marks where each transaction begins, commits and rolls back", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      const { atomically } = yield* Transactor
      assert.strictEqual(yield* atomically(Effect.succeed(1)), 1)
      yield* Effect.exit(atomically(Effect.fail("refused")))
      yield* Effect.exit(atomically(Effect.die("broken")))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "Transactor.commit",
        "Transactor.begin",
        "Transactor.rollback",
        "Transactor.begin",
        "Transactor.rollback"
      ])
    }).pipe(Effect.provide(testTransactor(log)))
  })

  it.effect("the test event publisher keeps every event in order", () => {
    const events = makeTestEventPublisher()
    const event = (event_type: "order_shipped" | "wave_started", data: number) => ({
      event_type,
      site_id: "main",
      client_id: null,
      data
    })
    return Effect.gen(function*() {
      const publisher = yield* EventPublisher
      yield* publisher.publish(event("wave_started", 1))
      yield* publisher.publishAll([event("order_shipped", 2), event("order_shipped", 3)])
      assert.deepStrictEqual(events.published, [
        event("wave_started", 1),
        event("order_shipped", 2),
        event("order_shipped", 3)
      ])
    }).pipe(Effect.provide(events.layer))
  })
})
