/**
 * A wave start of many pages of orders against a store held in memory: it must write what the plan
 * of the whole wave at once (`allocate`) holds, in the same order, whatever the page boundaries.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  allocate,
  type ClaimRow,
  InventoryRepository,
  type NewLedgerEntry,
  OrderRepository,
  type OrderToAllocate,
  type PickType,
  pickTypeDescription,
  Replenishment,
  type StatusId,
  type StockToAllocate,
  type StoredOrder,
  type StoredWave,
  toOrder,
  type WaveDefinition,
  WaveDefinitions,
  WaveRepository,
  Waves
} from "@wms/core"
import { makeTestEventPublisher, makeTestLayer, testTransactor } from "@wms/core/testing"
import { Effect, Layer, Option } from "effect"
import { siteActor } from "./Fixtures.js"

const createdAt = "1970-01-01T00:00:00.000Z"

/** A small seeded generator (mulberry32), so that every run tests the same waves. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * Orders with few distinct keys, so that many tie on their dates and some on their order id too
 * (two clients may use one id): ties are served by order ref, across page boundaries as well.
 */
const makeOrders = (count: number, seed: number): Array<OrderToAllocate> => {
  const next = random(seed)
  const pick = <A>(values: ReadonlyArray<A>) => values[Math.floor(next() * values.length)]
  return Array.from({ length: count }, (_, i) => ({
    order_ref: i + 1,
    order_id: `SO-${Math.floor(next() * count * 0.9)}`,
    client_id: pick([null, "c1"]),
    order_date: pick([null, "2030-01-01", "2030-01-02"]),
    ship_by_date: pick([null, null, "2030-02-01", "2030-02-02"]),
    ship_dock: pick([null, "DOCK-2"]),
    customer_name: pick([null, "Jansen", "Smit", "De Vries"]),
    carrier_name: pick([null, "PostNL", "DHL"]),
    // Lines out of line order now and then: they are served in line order.
    lines: Array.from({ length: 1 + Math.floor(next() * 3) }, (_, j) => ({
      line: j + 1,
      sku_id: pick(["A", "B", "C", "D"]),
      qty: 1 + Math.floor(next() * 9)
    })).sort(() => next() - 0.5)
  }))
}

/** Stock that covers about three quarters of what the orders ask for, some of it expired. */
const makeStock = (orders: ReadonlyArray<OrderToAllocate>, seed: number): Array<StockToAllocate> => {
  const next = random(seed)
  const demand = new Map<string, number>()
  for (const order of orders) {
    for (const line of order.lines) {
      const key = `${order.client_id ?? ""}/${line.sku_id}`
      demand.set(key, (demand.get(key) ?? 0) + line.qty)
    }
  }
  const stock: Array<StockToAllocate> = []
  for (const [key, wanted] of demand) {
    const [client, sku_id] = key.split("/")
    for (let c = 0; c < 6; c++) {
      stock.push({
        content_id: 0,
        sku_id,
        client_id: client === "" ? null : client,
        loc_id: `L-${stock.length}`,
        tag_id: `T-${stock.length}`,
        expiry_date: c === 0 ? null : c === 1 ? "1969-12-31" : `2030-0${1 + Math.floor(next() * 9)}-01`,
        created_at: `2029-0${1 + Math.floor(next() * 9)}-01T00:00:00.000Z`,
        qty: Math.max(1, Math.round((wanted / 6) * 0.75 * (0.5 + next()))),
        qty_allocated: c === 2 ? 1 : 0,
        qty_tasked_from: 0
      })
    }
  }
  // Content ids in no particular order of the queues.
  const ids = stock.map((_, i) => i + 1).sort(() => next() - 0.5)
  return stock.map((content, i) => ({ ...content, content_id: ids[i] }))
}

const storedOrder = (order: OrderToAllocate, status: StatusId): StoredOrder => ({
  header: {
    ref: order.order_ref,
    order_id: order.order_id,
    client_id: order.client_id,
    order_date: order.order_date,
    status_id: status,
    customer_id: null,
    customer_name: order.customer_name,
    customer_town: null,
    ship_by_date: order.ship_by_date,
    carrier_name: order.carrier_name,
    ship_dock: order.ship_dock,
    created_at: createdAt,
    created_by: "user-1",
    backorder_of: null,
    to_site: null
  },
  lines: order.lines.map((line) => ({ ...line, qty_picked: 0, qty_shipped: 0, qty_backordered: 0 }))
})

const definition = (pickType: PickType): WaveDefinition => ({
  id: 3,
  description: "All",
  criterium_id: 5,
  criterium: "All",
  value: null,
  pick_type: pickType,
  picktypedescription: pickTypeDescription(pickType),
  autostart: false,
  site_id: "main"
})

/** What a start wrote to the store held in memory, statement by statement. */
interface Written {
  readonly claimsets: Array<ReadonlyArray<{ readonly claimset_break: string; readonly pick_type: string }>>
  readonly claims: Array<ReadonlyArray<Omit<ClaimRow, "id">>>
  readonly entries: Array<ReadonlyArray<NewLedgerEntry>>
  readonly allocation: Array<ReadonlyMap<number, number>>
  readonly statuses: Array<ReadonlyMap<number, StatusId>>
}

/** Starts a Released wave of `orders` over `stock` on a store held in memory. */
const startWave = (orders: ReadonlyArray<OrderToAllocate>, stock: ReadonlyArray<StockToAllocate>, pick: PickType) => {
  const written: Written = { claimsets: [], claims: [], entries: [], allocation: [], statuses: [] }
  const statusOf = new Map<number, StatusId>(orders.map((order) => [order.order_ref, 14 as StatusId]))
  const wave: StoredWave = {
    id: 5,
    site_id: siteActor.scope.site_id,
    client_id: null,
    status_id: 14,
    criterium_id: 5,
    value: null,
    pick_type: pick,
    autostart: false,
    created_at: createdAt,
    created_by: "user-1"
  }
  let claimsetId = 0
  const released = () => orders.filter((order) => statusOf.get(order.order_ref) === 14)
  const waves: Partial<WaveRepository["Type"]> = {
    lock: () => Effect.succeed(Option.some(wave)),
    ordersToAllocate: (_, limit) => Effect.sync(() => released().slice(0, limit)),
    totals: () => Effect.succeed({ order_count: orders.length, qty_ordered: 0, qty_allocated: 0 }),
    orderKeysToAllocate: (_, afterRef, limit) =>
      Effect.sync(() =>
        released().filter((order) => order.order_ref > afterRef).slice(0, limit).map((order) => ({
          order_ref: order.order_ref,
          order_id: order.order_id,
          order_date: order.order_date,
          ship_by_date: order.ship_by_date
        }))
      ),
    skusToAllocate: () =>
      Effect.sync(() => [...new Set(released().flatMap((order) => order.lines.map((line) => line.sku_id)))]),
    ordersToAllocateAmong: (_, refs) =>
      Effect.sync(() => {
        const among = new Set(refs)
        return released().filter((order) => among.has(order.order_ref))
      }),
    lockStock: (_, skuIds) => Effect.succeed(stock.filter((content) => skuIds.includes(content.sku_id))),
    defaultDock: () => Effect.succeed("DOCK"),
    insertClaimsets: (_, sets) =>
      Effect.sync(() => {
        written.claimsets.push(sets)
        return sets.map(() => ++claimsetId)
      }),
    insertClaims: (rows) => Effect.sync(() => void written.claims.push(rows)),
    setOrderStatuses: (statuses) =>
      Effect.sync(() => {
        written.statuses.push(statuses)
        for (const [ref, status] of statuses) statusOf.set(ref, status)
      }),
    setStatus: () => Effect.void
  }
  const inventory: Partial<InventoryRepository["Type"]> = {
    appendTransactions: (entries) => Effect.sync(() => void written.entries.push(entries)),
    changeAllocation: (changes) => Effect.sync(() => void written.allocation.push(changes))
  }
  const byRef = new Map(orders.map((order) => [order.order_ref, order]))
  const findMany = (refs: ReadonlyArray<number>) =>
    Effect.sync(() =>
      [...new Set(refs)].sort((a, b) => a - b).map((ref) => storedOrder(byRef.get(ref)!, statusOf.get(ref)!))
    )
  const events = makeTestEventPublisher()
  return Effect.flatMap(Waves, (service) => service.start(siteActor, 5)).pipe(
    Effect.map((result) => ({ result, written, events: events.published, statusOf })),
    Effect.provide(Waves.Default.pipe(Layer.provide([
      makeTestLayer(WaveRepository)(waves),
      makeTestLayer(InventoryRepository)(inventory),
      makeTestLayer(OrderRepository)({ findMany }),
      makeTestLayer(WaveDefinitions)({ getWaveDefinition: () => Effect.succeed(definition(pick)) }),
      makeTestLayer(Replenishment)({ afterWaveStart: () => Effect.succeed([]) }),
      events.layer,
      testTransactor()
    ])))
  )
}

/** Starts the wave and checks every write against the plan of the whole wave at once. */
const startsAsPlanned = (orderCount: number, pick: PickType, seed: number) =>
  Effect.gen(function*() {
    const orders = makeOrders(orderCount, seed)
    const stock = makeStock(orders, seed + 1)
    const plan = allocate(orders, stock, {
      waveId: 5,
      pickType: pick,
      pickTypeDescription: pickTypeDescription(pick),
      today: "1970-01-01",
      defaultDock: "DOCK"
    })
    const { events, result, statusOf, written } = yield* startWave(orders, stock, pick)
    assert.deepStrictEqual(result, { message: "Wave met id 5 is gestart" })

    // Claimsets in the order opened; claims with their ids, in plan order, in full batches.
    assert.deepStrictEqual(written.claimsets.flat(), plan.claimsets)
    const claims = written.claims.flat()
    assert.deepStrictEqual(
      claims.map((claim) => [claim.order_ref, claim.line_id, claim.content_id, claim.qty, claim.claimset_id]),
      plan.claims.map((claim) => [claim.order_ref, claim.line_id, claim.content_id, claim.qty, claim.claimset + 1])
    )
    assert.isTrue(written.claims.slice(0, -1).every((batch) => batch.length === 1_000))
    assert.deepStrictEqual(
      written.entries.flat().map((entry) => [entry.content_id, entry.qty, entry.order_id, entry.line_id]),
      claims.map((claim) => [claim.content_id, claim.qty, claim.order_id, claim.line_id])
    )

    // What each content gains, once; every order's status, in batches of one status but the last.
    assert.deepStrictEqual(written.allocation, [plan.allocatedByContent])
    assert.deepStrictEqual(
      [...statusOf].sort(([a], [b]) => a - b),
      [...plan.orderStatuses].sort(([a], [b]) => a - b)
    )
    for (const batch of written.statuses.slice(0, -1)) {
      assert.strictEqual(batch.size, 5_000)
      assert.strictEqual(new Set(batch.values()).size, 1)
    }

    // order_allocated in windows of 5,000 orders of the serving order, by order ref within each.
    const allocated = [...plan.orderStatuses].filter(([, status]) => status !== 14).map(([ref]) => ref)
    const windows: Array<number> = []
    for (let start = 0; start < allocated.length; start += 5_000) {
      windows.push(...allocated.slice(start, start + 5_000).sort((a, b) => a - b))
    }
    assert.deepStrictEqual(events.map((event) => event.event_type), [
      ...windows.map(() => "order_allocated"),
      "wave_started"
    ])
    assert.deepStrictEqual(
      events.slice(0, -1).map((event) => event.data),
      windows.map((ref) => toOrder(storedOrder(orders[ref - 1], plan.orderStatuses.get(ref)!), "UTC"))
    )
  })

describe("wave start, page by page", () => {
  it.effect("writes the plan of the whole wave: claims by order, FEFO and one claimset per order", () =>
    startsAsPlanned(2_345, 1, 11))

  it.effect("keeps a claimset open across pages: one per wave, per customer, per carrier", () =>
    Effect.gen(function*() {
      yield* startsAsPlanned(1_234, 2, 12)
      yield* startsAsPlanned(1_234, 3, 13)
      yield* startsAsPlanned(1_234, 4, 14)
    }))

  it.effect(
    "publishes order_allocated in windows of 5,000 orders over many pages",
    () => startsAsPlanned(12_000, 1, 15),
    { timeout: 120_000 }
  )

  it.effect("plans a wave of exactly one page, and one of a page and one order", () =>
    Effect.gen(function*() {
      for (const count of [1, 249, 250, 251]) yield* startsAsPlanned(count, 1, 16 + count)
    }))
})
