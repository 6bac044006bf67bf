import { assert, describe, it } from "@effect/vitest"
import {
  type ClaimRow,
  type ConfirmTaskRequest,
  type Content,
  ControlCountsLive,
  CountInFlightLive,
  CountRepository,
  defaultSiteSettings,
  InventoryRepository,
  LocationRepository,
  type LocationWithOccupancy,
  type OpenTaskCounts,
  OrderRepository,
  Picking,
  PickingRepository,
  Replenishment,
  ShippingUnitRepository,
  type ShippingUnitRow,
  type SiteSettings,
  SiteSettingsRepository,
  type StockToAllocate,
  type StoredOrder,
  toOrder,
  TransferRepository,
  WaveRepository
} from "@wms/core"
import { CallLog, makeTestEventPublisher, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option } from "effect"
import { failure, siteActor } from "./Fixtures.js"

/** Picking on its ports, with the counts' sides of the ports it declares. */
const pickingLayer = Picking.Default.pipe(Layer.provide([CountInFlightLive, ControlCountsLive]))

const createdAt = "1970-01-01T00:00:00.000Z"

/** Task 11: 3 of A from content 22 at L-22 to DOCK, for line 1 of SO-7 (ref 7), claimset 31 of wave 5. */
const task = (fields: Partial<ClaimRow> = {}): ClaimRow => ({
  id: 11,
  site_id: siteActor.scope.site_id,
  client_id: null,
  wave_id: 5,
  claimset_id: 31,
  content_id: 22,
  order_ref: 7,
  order_id: "SO-7",
  line_id: 1,
  sku_id: "A",
  qty: 3,
  status: "allocated",
  tag_id: "T-22",
  from_loc_id: "L-22",
  to_loc_id: "DOCK",
  final_loc_id: "DOCK",
  created_at: createdAt,
  ...fields
})

const content: Content = {
  content_id: 22,
  site_id: siteActor.scope.site_id,
  client_id: null,
  sku_id: "A",
  loc_id: "L-22",
  tag_id: "T-22",
  expiry_date: null,
  qty: 10,
  qty_allocated: 3,
  qty_tasked_from: 0,
  created_at: createdAt
}

const order = (status_id: number, qty_shipped: number): StoredOrder => ({
  header: {
    ref: 7,
    order_id: "SO-7",
    client_id: null,
    order_date: null,
    status_id,
    customer_id: null,
    customer_name: null,
    customer_town: null,
    ship_by_date: null,
    carrier_name: null,
    ship_dock: null,
    created_at: createdAt,
    created_by: "user-1",
    backorder_of: null,
    to_site: null
  },
  lines: [{ line: 1, sku_id: "A", qty: 3, qty_picked: 3, qty_shipped, qty_backordered: 0 }]
})

interface Stubs {
  readonly picking?: Partial<Context.Tag.Service<PickingRepository>>
  readonly orders?: Partial<Context.Tag.Service<OrderRepository>>
  readonly settings?: Partial<SiteSettings>
  readonly units?: Partial<Context.Tag.Service<ShippingUnitRepository>>
  readonly inventory?: Partial<Context.Tag.Service<InventoryRepository>>
  readonly transfers?: Partial<Context.Tag.Service<TransferRepository>>
  /** What `lockStock` finds of SKU A. */
  readonly stock?: ReadonlyArray<StockToAllocate>
  /** The managed locations. */
  readonly locations?: ReadonlyArray<string>
  /** Whether the task's location is a pick face of its SKU, which a pick replenishes. */
  readonly face?: boolean
}

/** A managed location as `lockMany` finds it: the short pick only asks whether there is one. */
const managed = (loc_id: string) => ({ loc_id }) as LocationWithOccupancy

/** Stock of SKU A that a re-allocation may take, with `free` available. */
const stockOf = (content_id: number, free: number, expiry_date: string | null): StockToAllocate => ({
  content_id,
  sku_id: "A",
  client_id: null,
  loc_id: `L-${content_id}`,
  tag_id: `T-${content_id}`,
  expiry_date,
  created_at: createdAt,
  qty: free,
  qty_allocated: 0,
  qty_tasked_from: 0
})

/** The open task 11 with its content, and `left` open tasks after it is closed. */
const openTask = (left: OpenTaskCounts): Partial<Context.Tag.Service<PickingRepository>> => ({
  findOpenTask: (_, taskId) => Effect.succeed(taskId === 11 ? Option.some(task()) : Option.none()),
  lockWave: () => Effect.succeed(Option.some(15)),
  lockOpenTask: (taskId) => Effect.succeed(taskId === 11 ? Option.some(task()) : Option.none()),
  closeTask: () => Effect.succeed(true),
  takeAllocated: () => Effect.void,
  addPicked: () => Effect.void,
  openTaskCounts: () => Effect.succeed(left),
  setClaimsetStatus: () => Effect.void,
  addBackordered: () => Effect.void,
  clearBackordered: () => Effect.void
})

const someLeft: OpenTaskCounts = { order: 1, orderPicked: 1, claimset: 1, wave: 1 }

/** Runs `f` on a `Picking` service on the stubs given; the events it publishes are returned with its result. */
const withPicking = <A, E>(log: CallLog, stubs: Stubs, f: (picking: Picking) => Effect.Effect<A, E>) => {
  const events = makeTestEventPublisher()
  return Effect.flatMap(Picking, f).pipe(
    Effect.map((result) => ({ result, events: events.published })),
    Effect.provide(pickingLayer.pipe(Layer.provide([
      makeTestLayer(PickingRepository)(stubs.picking ?? {}, log),
      makeTestLayer(InventoryRepository)({
        lockContent: () => Effect.succeed(Option.some(content)),
        appendTransactions: () => Effect.void,
        changeAllocation: () => Effect.void,
        insertLostAndFound: () => Effect.succeed(1),
        ...stubs.inventory
      }, log),
      makeTestLayer(OrderRepository)({ lock: () => Effect.succeed(Option.some(15)), ...stubs.orders }, log),
      makeTestLayer(WaveRepository)({
        setOrderStatuses: () => Effect.void,
        setStatus: () => Effect.void,
        lockStock: () => Effect.succeed(stubs.stock ?? []),
        insertClaims: () => Effect.void
      }, log),
      makeTestLayer(CountRepository)(
        { addInFlight: () => Effect.void, insert: () => Effect.succeed(Option.some(41)) },
        log
      ),
      makeTestLayer(SiteSettingsRepository)({
        get: () => Effect.succeed({ ...defaultSiteSettings, ...stubs.settings })
      }, log),
      makeTestLayer(ShippingUnitRepository)({
        ofOrder: () => Effect.succeed([]),
        shipOrder: () => Effect.void,
        ...stubs.units
      }, log),
      makeTestLayer(TransferRepository)(stubs.transfers ?? {}, log),
      makeTestLayer(LocationRepository)({
        lockMany: (_, locIds) => Effect.succeed(locIds.filter((id) => stubs.locations?.includes(id)).map(managed))
      }, log),
      // The replenishment a pick triggers opens no task here.
      makeTestLayer(Replenishment)({
        afterChange: () => Effect.succeed([]),
        replenishesAfter: () => Effect.succeed(stubs.face === true)
      }),
      events.layer,
      testTransactor(log)
    ])))
  )
}

/** Confirms task 11 short, picking 1 of its 3, on the settings and stock given. */
const confirmShort = (log: CallLog, left: OpenTaskCounts, stubs: Stubs, request: Partial<ConfirmTaskRequest> = {}) =>
  withPicking(
    log,
    { ...stubs, picking: { ...openTask(left), ...stubs.picking } },
    (picking) => picking.confirm(siteActor, 11, { qty: 1, ...request })
  )

/** The claim a re-allocation makes of `qty` from content `id`, in task 11's wave and claimset. */
const reclaim = (id: number, qty: number) => ({
  site_id: "main",
  client_id: null,
  wave_id: 5,
  claimset_id: 31,
  content_id: id,
  order_ref: 7,
  order_id: "SO-7",
  line_id: 1,
  sku_id: "A",
  qty,
  status: "allocated",
  tag_id: `T-${id}`,
  from_loc_id: `L-${id}`,
  to_loc_id: "DOCK",
  final_loc_id: "DOCK",
  created_at: createdAt
})

/** Confirms task `taskId` picking `qty`, with `left` open tasks after it. */
const confirm = (log: CallLog, left: OpenTaskCounts, qty: number | null, taskId = 11) =>
  withPicking(log, { picking: openTask(left) }, (picking) => picking.confirm(siteActor, taskId, { qty }))

const entry = (transaction_type: string, qty: number, to: string, notes: string) => ({
  site_id: "main",
  client_id: null,
  created_at: createdAt,
  transaction_type,
  content_id: 22,
  from_loc_id: "L-22",
  to_loc_id: to,
  final_loc_id: to,
  sku_id: "A",
  qty,
  tag_id: "T-22",
  order_id: "SO-7",
  line_id: 1,
  notes,
  from_content_id: null,
  reason_code: null
})

const lostItem = (qty: number) => ({
  site_id: "main",
  client_id: null,
  content_id: 22,
  sku_id: "A",
  loc_id: "L-22",
  tag_id: "T-22",
  qty,
  created_at: createdAt,
  created_by: "user-1",
  notes: "Short pick of task 11"
})

describe("Picking", () => {
  it.effect("a pick at a pick face locks its SKU's stock with its content, by content id, before the content alone", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* withPicking(
        log,
        { picking: openTask(someLeft), face: true },
        (picking) => picking.confirm(siteActor, 11, { qty: null })
      )
      assert.deepStrictEqual(log.argsOf("WaveRepository.lockStock"), [["main", ["A"], 22]])
      const locks = ["WaveRepository.lockStock", "InventoryRepository.lockContent"].map((m) => log.methods.indexOf(m))
      assert.isTrue(locks[0] >= 0 && locks[0] < locks[1], JSON.stringify(log.methods))
      // It claims nothing again: the stock is only locked, for the replenishment.
      assert.deepStrictEqual(log.argsOf("WaveRepository.insertClaims"), [])
    })
  })

  it.effect("confirm locks wave, order, task and content in that order, then picks the whole task", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* confirm(log, someLeft, null)
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "PickingRepository.findOpenTask",
        "PickingRepository.lockWave",
        "OrderRepository.lock",
        "PickingRepository.lockOpenTask",
        "InventoryRepository.lockContent",
        "PickingRepository.closeTask",
        "PickingRepository.takeAllocated",
        "CountRepository.addInFlight",
        "PickingRepository.addPicked",
        "InventoryRepository.appendTransactions",
        "PickingRepository.openTaskCounts",
        "WaveRepository.setOrderStatuses",
        "PickingRepository.setClaimsetStatus",
        "WaveRepository.setStatus",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("PickingRepository.lockWave"), [[5]])
      assert.deepStrictEqual(log.argsOf("OrderRepository.lock"), [[7]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.closeTask"), [[11, 3]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.takeAllocated"), [[22, 3]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.addPicked"), [[7, 1, 3]])
      // A Pick from the content's location to the task's destination.
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[
        entry("Pick", 3, "DOCK", "Task 11")
      ]]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.openTaskCounts"), [[{
        orderRef: 7,
        claimsetId: 31,
        waveId: 5
      }]])
      // Tasks left on the order, the claimset and the wave: all three stay in progress.
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 17]])]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.setClaimsetStatus"), [[31, "released"]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setStatus"), [[5, 17]])
    })
  })

  it.effect("a short pick takes the whole task off the content: the rest is Lost and a lost-and-found item", () => {
    const log = new CallLog()
    const lastTask = { order: 0, orderPicked: 1, claimset: 0, wave: 0 }
    return Effect.gen(function*() {
      yield* confirm(log, lastTask, 2)
      assert.deepStrictEqual(log.argsOf("PickingRepository.closeTask"), [[11, 2]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.takeAllocated"), [[22, 3]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.addPicked"), [[7, 1, 2]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertLostAndFound"), [[lostItem(1)]])
      // The Lost entry stays where the stock was.
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[
        entry("Pick", 2, "DOCK", "Task 11"),
        entry("Lost", 1, "L-22", "Short pick of task 11")
      ]]])
      // The last task: the order is Picked, the claimset picked, the wave Complete.
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 18]])]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.setClaimsetStatus"), [[31, "picked"]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setStatus"), [[5, 20]])
    })
  })

  it.effect("qty 0 loses the whole task and picks nothing; an order with nothing picked is Released again", () => {
    const log = new CallLog()
    const nothingPicked = { order: 0, orderPicked: 0, claimset: 0, wave: 0 }
    return Effect.gen(function*() {
      yield* confirm(log, nothingPicked, 0)
      assert.deepStrictEqual(log.argsOf("PickingRepository.closeTask"), [[11, 0]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.addPicked"), [])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertLostAndFound"), [[lostItem(3)]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[
        entry("Lost", 3, "L-22", "Short pick of task 11")
      ]]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 14]])]])
    })
  })

  it.effect("with the short-pick settings off a short pick reads them and writes what it always wrote", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* confirmShort(log, someLeft, { stock: [stockOf(30, 5, null)], locations: ["L-22"] })
      const written = log.methods.filter((method) => !method.endsWith(".get"))
      assert.deepStrictEqual(log.argsOf("SiteSettingsRepository.get"), [["main"]])
      for (const method of ["lockStock", "insertClaims", "addBackordered", "lockMany", "insert"]) {
        assert.isFalse(written.some((called) => called.endsWith(`.${method}`)), method)
      }
    })
  })

  it.effect("a re-allocating short pick claims the shortfall by FEFO from other stock, in the task's wave and claimset", () => {
    const log = new CallLog()
    // Content 22 is the shorted one; 30 expires last, 31 first, 32 has no expiry.
    const stock = [
      stockOf(22, 7, null),
      stockOf(30, 5, "2099-03-01"),
      stockOf(31, 1, "2099-01-01"),
      stockOf(32, 9, null)
    ]
    return Effect.gen(function*() {
      yield* confirmShort(log, someLeft, { stock, settings: { reallocate_short_picks: true } })
      // The SKU's stock is locked with the task's own content in one pass by content id, before the
      // confirmation locks that content alone: the lock order of every writer of contents.
      assert.deepStrictEqual(log.argsOf("WaveRepository.lockStock"), [["main", ["A"], 22]])
      const locks = ["WaveRepository.lockStock", "InventoryRepository.lockContent"].map((m) => log.methods.indexOf(m))
      assert.isTrue(locks[0] >= 0 && locks[0] < locks[1], JSON.stringify(log.methods))
      // Re-allocated before the task closes, so the claimset is never left empty and removed.
      const order = ["WaveRepository.insertClaims", "PickingRepository.closeTask"].map((m) => log.methods.indexOf(m))
      assert.isTrue(order[0] >= 0 && order[0] < order[1])
      assert.deepStrictEqual(log.argsOf("WaveRepository.insertClaims"), [[[reclaim(31, 1), reclaim(30, 1)]]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.changeAllocation"), [[new Map([[31, 1], [30, 1]])]])
      const [[allocations], [pick]] = log.argsOf("InventoryRepository.appendTransactions") as Array<
        [ReadonlyArray<{ transaction_type: string; content_id: number; qty: number }>]
      >
      assert.deepStrictEqual(allocations.map((e) => [e.transaction_type, e.content_id, e.qty]), [
        ["Allocate", 31, 1],
        ["Allocate", 30, 1]
      ])
      assert.deepStrictEqual(pick.map((e) => e.transaction_type), ["Pick", "Lost"])
    })
  })

  it.effect("the confirmation's reallocate wins over the site setting, both ways", () =>
    Effect.gen(function*() {
      const stock = [stockOf(30, 5, null)]
      const asked = new CallLog()
      yield* confirmShort(asked, someLeft, { stock }, { reallocate: true })
      assert.deepStrictEqual(asked.argsOf("WaveRepository.insertClaims"), [[[reclaim(30, 2)]]])
      const refused = new CallLog()
      yield* confirmShort(refused, someLeft, { stock, settings: { reallocate_short_picks: true } }, {
        reallocate: false
      })
      assert.deepStrictEqual(refused.argsOf("WaveRepository.lockStock"), [])
    }))

  it.effect("with backorders on, what re-allocation leaves uncovered is backordered on the line", () =>
    Effect.gen(function*() {
      const both = new CallLog()
      yield* confirmShort(both, someLeft, {
        stock: [stockOf(30, 1, null)],
        settings: { reallocate_short_picks: true, backorders: true }
      })
      assert.deepStrictEqual(both.argsOf("PickingRepository.addBackordered"), [[7, 1, 1]])
      // Without re-allocation the whole shortfall is backordered.
      const alone = new CallLog()
      yield* confirmShort(alone, someLeft, { stock: [stockOf(30, 9, null)], settings: { backorders: true } })
      assert.deepStrictEqual(alone.argsOf("PickingRepository.addBackordered"), [[7, 1, 2]])
      assert.deepStrictEqual(alone.argsOf("PickingRepository.clearBackordered"), [])
    }))

  it.effect("an order left with nothing picked is Released whole, with nothing backordered", () => {
    const log = new CallLog()
    const nothingPicked = { order: 0, orderPicked: 0, claimset: 0, wave: 0 }
    return Effect.gen(function*() {
      yield* confirmShort(log, nothingPicked, { settings: { backorders: true } }, { qty: 0 })
      assert.deepStrictEqual(log.argsOf("PickingRepository.addBackordered"), [[7, 1, 3]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.clearBackordered"), [[7]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 14]])]])
      // Backorders off by now: what earlier short picks backordered is cleared all the same.
      const off = new CallLog()
      yield* confirmShort(off, nothingPicked, {}, { qty: 0 })
      assert.deepStrictEqual(off.argsOf("PickingRepository.clearBackordered"), [[7]])
    })
  })

  it.effect("a short pick opens a control count of a managed location, unless its reason rules one out", () =>
    Effect.gen(function*() {
      const settings = { count_on_short_pick: true }
      const counted = new CallLog()
      yield* confirmShort(counted, someLeft, { settings, locations: ["L-22"] }, { reason_code: "StockOut" })
      assert.deepStrictEqual(counted.argsOf("LocationRepository.lockMany"), [["main", ["L-22"], "share"]])
      const [[count]] = counted.argsOf("CountRepository.insert") as Array<[{ loc_id: string; reason: string }]>
      assert.deepStrictEqual([count.loc_id, count.reason], ["L-22", "Short pick of task 11"])
      // The reason is kept on the Lost transaction.
      const [[entries]] = counted.argsOf("InventoryRepository.appendTransactions") as Array<
        [ReadonlyArray<{ transaction_type: string; reason_code: string | null }>]
      >
      assert.deepStrictEqual(entries.map((e) => [e.transaction_type, e.reason_code]), [
        ["Pick", null],
        ["Lost", "StockOut"]
      ])

      const damaged = new CallLog()
      yield* confirmShort(damaged, someLeft, { settings, locations: ["L-22"] }, { reason_code: "Damaged" })
      assert.deepStrictEqual(damaged.argsOf("CountRepository.insert"), [])
      const unmanaged = new CallLog()
      yield* confirmShort(unmanaged, someLeft, { settings })
      assert.deepStrictEqual(unmanaged.argsOf("CountRepository.insert"), [])
    }))

  it.effect("confirming more than the task holds is a 400 naming qty, before anything is written", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      assert.deepStrictEqual(
        yield* failure(confirm(log, someLeft, 4)),
        ["InvalidInput", "Invalid field qty: must be at most the task's quantity, 3"]
      )
      assert.deepStrictEqual(log.methods.slice(-2), ["PickingRepository.lockOpenTask", "Transactor.rollback"])
    })
  })

  it.effect("a task that is missing, out of scope or closed meanwhile is a 404, and nothing moves", () =>
    Effect.gen(function*() {
      const notFound = (id: number) => ["TaskNotFound", `Task with id ${id} not found`]
      const missing = new CallLog()
      assert.deepStrictEqual(
        yield* failure(confirm(missing, someLeft, null, 99)),
        notFound(99)
      )
      assert.deepStrictEqual(missing.methods, [
        "Transactor.begin",
        "PickingRepository.findOpenTask",
        "Transactor.rollback"
      ])

      // Another confirmation closed it while this one waited for the locks.
      const beforeLock = new CallLog()
      assert.deepStrictEqual(
        yield* failure(withPicking(
          beforeLock,
          { picking: { ...openTask(someLeft), lockOpenTask: () => Effect.succeed(Option.none()) } },
          (picking) => picking.confirm(siteActor, 11, { qty: null })
        )),
        notFound(11)
      )
      assert.isFalse(beforeLock.methods.includes("PickingRepository.closeTask"))

      const closedAtUpdate = new CallLog()
      assert.deepStrictEqual(
        yield* failure(withPicking(
          closedAtUpdate,
          { picking: { ...openTask(someLeft), closeTask: () => Effect.succeed(false) } },
          (picking) => picking.confirm(siteActor, 11, { qty: null })
        )),
        notFound(11)
      )
      assert.deepStrictEqual(closedAtUpdate.methods.slice(-2), ["PickingRepository.closeTask", "Transactor.rollback"])
    }))

  it.effect("ship writes a Shipment per picked claim, ships the lines, and publishes the order as it is then", () => {
    const log = new CallLog()
    const shipped = order(19, 3)
    let reads = 0
    const stubs: Stubs = {
      orders: {
        find: (_, orderId) =>
          Effect.sync(() => orderId === "SO-7" ? Option.some(reads++ === 0 ? order(18, 0) : shipped) : Option.none()),
        lock: () => Effect.succeed(Option.some(18))
      },
      picking: {
        openTasksOfOrder: () => Effect.succeed(0),
        pickedClaims: () =>
          Effect.succeed([task({ id: 11, qty: 2, status: "picked" }), task({ id: 12, qty: 1, status: "picked" })]),
        shipLines: () => Effect.void
      }
    }
    return Effect.gen(function*() {
      const { events } = yield* withPicking(log, stubs, (picking) => picking.ship(siteActor, "SO-7"))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.find",
        "OrderRepository.lock",
        "PickingRepository.openTasksOfOrder",
        "PickingRepository.pickedClaims",
        "SiteSettingsRepository.get",
        "InventoryRepository.appendTransactions",
        "PickingRepository.shipLines",
        "ShippingUnitRepository.shipOrder",
        "WaveRepository.setOrderStatuses",
        "OrderRepository.find",
        "Transactor.commit"
      ])
      const shipment = (qty: number) => ({
        ...entry("Shipment", qty, "DOCK", "Shipment of order SO-7"),
        // From the dock the picks went to.
        from_loc_id: "DOCK"
      })
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[shipment(2), shipment(1)]]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.shipLines"), [[7]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 19]])]])
      assert.deepStrictEqual(events, [
        { event_type: "order_shipped", site_id: "main", client_id: null, data: toOrder(shipped, "UTC") }
      ])
    })
  })

  it.effect("ship of a transfer writes TransferOut, creates the destination's In Transit pre-advice and tells both sites", () => {
    const log = new CallLog()
    const toNorth = (o: StoredOrder): StoredOrder => ({ ...o, header: { ...o.header, to_site: "north" } })
    const shipped = toNorth(order(19, 3))
    let reads = 0
    const claims = [
      task({ id: 11, qty: 2, status: "picked" }),
      task({ id: 12, qty: 1, status: "picked" }),
      task({ id: 13, qty: 4, status: "picked", content_id: 23, tag_id: "T-23" })
    ]
    const stubs = (destinationSkus: ReadonlyArray<string>, inserted = true): Stubs => ({
      orders: {
        find: () => Effect.sync(() => Option.some(reads++ === 0 ? toNorth(order(18, 0)) : shipped)),
        lock: () => Effect.succeed(Option.some(18)),
        visibleSkus: (scope, skuIds) =>
          Effect.succeed(new Set(scope.site_id === "north" ? skuIds.filter((id) => destinationSkus.includes(id)) : []))
      },
      picking: {
        openTasksOfOrder: () => Effect.succeed(0),
        pickedClaims: () => Effect.succeed(claims),
        shipLines: () => Effect.void
      },
      inventory: {
        findContent: (_, contentId) =>
          Effect.succeed(
            Option.some({
              ...content,
              content_id: contentId,
              expiry_date: contentId === 22 ? "2031-01-31" : null,
              description: null
            })
          )
      },
      transfers: { insertTransfer: () => Effect.succeed(inserted ? Option.some(90) : Option.none()) }
    })
    return Effect.gen(function*() {
      const { events } = yield* withPicking(log, stubs(["A"]), (picking) => picking.ship(siteActor, "SO-7"))
      const out = (claim: ClaimRow) => ({
        ...entry("TransferOut", claim.qty, "DOCK", "Transfer SO-7"),
        content_id: claim.content_id,
        tag_id: claim.tag_id,
        from_loc_id: "DOCK"
      })
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[claims.map(out)]])
      // One line per shipped content, with its tag and expiry; at the destination, In Transit.
      assert.deepStrictEqual(log.argsOf("TransferRepository.insertTransfer"), [[{
        site_id: "north",
        pre_advice_id: "TR-main-SO-7",
        order_id: "SO-7",
        from_site: "main",
        status_id: 26,
        created_at: createdAt,
        created_by: "user-1",
        lines: [
          { line: 1, sku_id: "A", qty: 3, tag_id: "T-22", expiry_date: "2031-01-31" },
          { line: 2, sku_id: "A", qty: 4, tag_id: "T-23", expiry_date: null }
        ]
      }]])
      assert.deepStrictEqual(log.argsOf("PickingRepository.shipLines"), [[7]])
      const data = toOrder(shipped, "UTC")
      assert.deepStrictEqual(events, [
        { event_type: "transfer_shipped", site_id: "main", client_id: null, data },
        { event_type: "transfer_shipped", site_id: "north", client_id: null, data }
      ])

      // A SKU the destination lost since, or its pre-advice id taken there: 409, nothing written.
      for (
        const [skus, inserted, refused] of [
          [[], true, ["TransferSkuMissing", "SKU A does not exist at site north, the transfer's destination"]],
          [["A"], false, ["PreAdviceExists", "PreAdvice with PreAdviceID TR-main-SO-7 already exists"]]
        ] as const
      ) {
        reads = 0
        const again = new CallLog()
        assert.deepStrictEqual(
          yield* failure(withPicking(again, stubs(skus, inserted), (picking) => picking.ship(siteActor, "SO-7"))),
          [...refused]
        )
        assert.notInclude(again.methods, "PickingRepository.shipLines")
        assert.deepStrictEqual(again.methods.at(-1), "Transactor.rollback")
      }
    })
  })

  it.effect("ship of an order with backordered lines makes its backorder order, skipping an id that is taken", () => {
    const log = new CallLog()
    const shipped: StoredOrder = {
      header: { ...order(19, 2).header, backorder_of: "SO-1" },
      lines: [{ line: 1, sku_id: "A", qty: 3, qty_picked: 2, qty_shipped: 2, qty_backordered: 1 }]
    }
    const made: StoredOrder = {
      header: { ...order(14, 0).header, ref: 8, order_id: "SO-1-B3", backorder_of: "SO-1" },
      lines: [{ line: 1, sku_id: "A", qty: 1, qty_picked: 0, qty_shipped: 0, qty_backordered: 0 }]
    }
    let reads = 0
    const stubs: Stubs = {
      orders: {
        find: () => Effect.sync(() => Option.some(reads++ === 0 ? order(18, 0) : shipped)),
        lock: () => Effect.succeed(Option.some(18)),
        findMany: () => Effect.succeed([made])
      },
      picking: {
        openTasksOfOrder: () => Effect.succeed(0),
        pickedClaims: () => Effect.succeed([task({ qty: 2, status: "picked" })]),
        shipLines: () => Effect.void,
        // SO-1 has one backorder, and a client took the id SO-1-B2 for an order of its own.
        backorderCount: () => Effect.succeed(1),
        insertBackorder: (_, backorder) =>
          Effect.succeed(backorder.order_id === "SO-1-B2" ? Option.none() : Option.some(8))
      }
    }
    return Effect.gen(function*() {
      const { events } = yield* withPicking(log, stubs, (picking) => picking.ship(siteActor, "SO-7"))
      // A backorder of a backorder is numbered among those of the first order.
      assert.deepStrictEqual(log.argsOf("PickingRepository.backorderCount"), [["main", "SO-1"]])
      assert.deepStrictEqual(
        log.argsOf("PickingRepository.insertBackorder").map(([ref, backorder]) => [ref, backorder]),
        [
          [7, { order_id: "SO-1-B2", backorder_of: "SO-1", created_at: createdAt, created_by: "user-1" }],
          [7, { order_id: "SO-1-B3", backorder_of: "SO-1", created_at: createdAt, created_by: "user-1" }]
        ]
      )
      assert.deepStrictEqual(events.map((event) => event.event_type), ["order_shipped", "order_backordered"])
      assert.deepStrictEqual(events[1].data, toOrder(made, "UTC"))
    })
  })

  it.effect("ship refuses an order that is shipped, has open tasks or has nothing picked: 409, nothing written", () =>
    Effect.gen(function*() {
      const attempt = (status: number, openTasks: number, picked: ReadonlyArray<ClaimRow>) => {
        const log = new CallLog()
        const stubs: Stubs = {
          orders: {
            find: () => Effect.succeed(Option.some(order(status, 0))),
            lock: () => Effect.succeed(Option.some(status))
          },
          picking: {
            openTasksOfOrder: () => Effect.succeed(openTasks),
            pickedClaims: () => Effect.succeed(picked)
          }
        }
        return Effect.map(
          failure(withPicking(log, stubs, (picking) => picking.ship(siteActor, "SO-7"))),
          (error) => [...error, log.methods.includes("InventoryRepository.appendTransactions"), log.methods.at(-1)]
        )
      }
      const picked = [task({ status: "picked" })]
      assert.deepStrictEqual(yield* attempt(19, 1, []), [
        "OrderShipped",
        "Order with OrderID SO-7 is already shipped",
        false,
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(yield* attempt(17, 1, picked), [
        "OrderTasksOpen",
        "Order with OrderID SO-7 still has open tasks",
        false,
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(yield* attempt(14, 0, []), [
        "OrderNothingPicked",
        "Order with OrderID SO-7 has nothing picked",
        false,
        "Transactor.rollback"
      ])
    }))

  it.effect("ship with pack_before_ship waits until all it picked is packed and every unit is closed", () =>
    Effect.gen(function*() {
      const unit = (status_id: number, qty: number, parent_id: number | null = null) =>
        ({
          id: 1,
          parent_id,
          status_id,
          lines: qty === 0 ? [] : [{ order_line: 1, sku_id: "A", qty, each_weight: null }]
        }) as unknown as ShippingUnitRow
      const attempt = (units: ReadonlyArray<ShippingUnitRow>, pack_before_ship = true) => {
        const log = new CallLog()
        const stubs: Stubs = {
          settings: { pack_before_ship },
          orders: {
            find: () => Effect.succeed(Option.some(order(18, 0))),
            lock: () => Effect.succeed(Option.some(18))
          },
          picking: {
            openTasksOfOrder: () => Effect.succeed(0),
            pickedClaims: () => Effect.succeed([task({ status: "picked" })]),
            shipLines: () => Effect.void
          },
          units: { ofOrder: () => Effect.succeed(units) }
        }
        return Effect.map(
          Effect.either(withPicking(log, stubs, (picking) => picking.ship(siteActor, "SO-7"))),
          (result) => [result._tag === "Left" ? result.left.message : "shipped", log.methods.at(-1)]
        )
      }
      // Line 1 picked 3.
      assert.deepStrictEqual(yield* attempt([]), ["Order SO-7 has 3 picked units not packed", "Transactor.rollback"])
      assert.deepStrictEqual(yield* attempt([unit(20, 2)]), [
        "Order SO-7 has 1 picked units not packed",
        "Transactor.rollback"
      ])
      // A closed carton on an open pallet holds the ship until the pallet closes.
      assert.deepStrictEqual(yield* attempt([unit(1, 0), unit(20, 3, 1)]), [
        "Order SO-7 has 1 shipping units not closed",
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(yield* attempt([unit(20, 0), unit(20, 3, 1)]), ["shipped", "Transactor.commit"])
      assert.deepStrictEqual(yield* attempt([], false), ["shipped", "Transactor.commit"])
    }))

  it.effect("ship of an order that is missing or gone before its lock is a 404", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(
        yield* failure(withPicking(
          new CallLog(),
          { orders: { find: () => Effect.succeed(Option.none()) } },
          (picking) => picking.ship(siteActor, "NONE")
        )),
        ["OrderNotFound", "Order with OrderID NONE not found"]
      )
      assert.deepStrictEqual(
        yield* failure(withPicking(
          new CallLog(),
          {
            orders: {
              find: () => Effect.succeed(Option.some(order(18, 0))),
              lock: () => Effect.succeed(Option.none())
            }
          },
          (picking) => picking.ship(siteActor, "SO-7")
        )),
        ["OrderNotFound", "Order with OrderID SO-7 not found"]
      )
    }))
})
