/**
 * The contract of `WaveRepository` on both stores: waves, their orders, and the claimsets and
 * claims a start writes.
 */
import { assert } from "@effect/vitest"
import {
  type ClaimRow,
  LocationRepository,
  OrderRepository,
  type Owner,
  type StatusId,
  WaveRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import {
  byCodeUnits,
  insertCarrier,
  insertContent,
  insertLocations,
  insertOrder,
  insertPartner,
  insertWave,
  locationOf,
  makeTenants,
  onEachStore,
  waitsForCommit
} from "./Contract.js"

/** A claim of `qty` on a content for a line of an order, open. */
const claimOf = (
  owner: Owner,
  ids: { readonly wave: number; readonly claimset: number; readonly content: number; readonly order: number },
  fields: { readonly order_id: string; readonly line_id: number; readonly qty: number; readonly sku_id?: string }
): Omit<ClaimRow, "id"> => ({
  site_id: owner.site_id,
  client_id: owner.client_id,
  wave_id: ids.wave,
  claimset_id: ids.claimset,
  content_id: ids.content,
  order_ref: ids.order,
  order_id: fields.order_id,
  line_id: fields.line_id,
  sku_id: fields.sku_id ?? "A",
  qty: fields.qty,
  status: "allocated",
  tag_id: "T1",
  from_loc_id: "A-01",
  to_loc_id: "DOCK",
  final_loc_id: "DOCK",
  created_at: "2030-01-01T09:30:00.000Z"
})

/** A wave of the site with one order of one line, claimed in one claimset: what a start leaves. */
const startedWave = (owner: Owner, orderId: string, qty = 3) =>
  Effect.gen(function*() {
    const waves = yield* WaveRepository
    const order = yield* insertOrder(owner, orderId, [["A", qty]], { status_id: 15 })
    const content = yield* insertContent(owner, { sku_id: "A", qty: 10, qty_allocated: qty })
    const wave = yield* insertWave(owner, { status_id: 17 })
    yield* waves.attachOrders(wave, [order])
    const [claimset] = yield* waves.insertClaimsets(wave, [{ claimset_break: orderId, pick_type: "Per order" }])
    yield* waves.insertClaims([
      claimOf(owner, { wave, claimset, content, order }, { order_id: orderId, line_id: 1, qty })
    ])
    const [claim] = yield* waves.claims(wave)
    return { wave, order, content, claimset, claim }
  })

onEachStore("WaveRepository", (it) => {
  it.effect("inserts waves and lists and finds those a scope sees, with the values' own types", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const ofSite = yield* insertWave(t.site.owner, { value: "", autostart: true, pick_type: 4, criterium_id: 8 })
      const ofClient = yield* insertWave(t.client1.owner)
      yield* insertWave(t.other.owner)
      assert.strictEqual(typeof ofSite, "number")
      const stored = {
        id: ofSite,
        site_id: t.site.owner.site_id,
        client_id: null,
        status_id: 14 as StatusId,
        criterium_id: 8,
        value: "",
        pick_type: 4 as const,
        autostart: true,
        created_at: "2030-01-01T09:00:00.000Z",
        created_by: "tester"
      }
      const listed = yield* waves.list(t.site.scope)
      assert.deepStrictEqual(listed.map((w) => w.id), [ofSite, ofClient])
      assert.deepStrictEqual(listed[0], stored)
      assert.deepStrictEqual([listed[1].value, listed[1].autostart], [null, false])
      assert.deepStrictEqual((yield* waves.list(t.client1.scope)).map((w) => w.id), [ofClient])
      assert.deepStrictEqual(yield* waves.list(t.client2.scope), [])
      assert.deepStrictEqual(yield* waves.find(t.site.scope, ofSite), Option.some(stored))
      assert.isTrue(Option.isNone(yield* waves.find(t.client1.scope, ofSite)))
      assert.isTrue(Option.isNone(yield* waves.find(t.other.scope, ofClient)))
      assert.deepStrictEqual(yield* waves.lock(t.site.scope, ofSite), Option.some(stored))
      assert.isTrue(Option.isNone(yield* waves.lock(t.client2.scope, ofClient)))
    }))

  it.effect("offers the Released orders of a scope that are in no unfinished wave, by key", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const customer = yield* insertPartner("customer", t.client1.owner, "Customer", "Town")
      const carrier = yield* insertCarrier(t.site.owner.site_id, "Carrier")
      const free = yield* insertOrder(t.client1.owner, "C-1", [["A", 1]], {
        customer_id: customer,
        carrier_id: carrier,
        order_date: "2030-01-02",
        ship_by_date: "2030-01-03"
      })
      const ofSite = yield* insertOrder(t.site.owner, "C-2", [["A", 1]])
      yield* insertOrder(t.client2.owner, "C-3", [["A", 1]], { status_id: 15 })
      const inOpenWave = yield* insertOrder(t.client2.owner, "C-4", [["A", 1]])
      const inCompleteWave = yield* insertOrder(t.client2.owner, "C-5", [["A", 1]])
      yield* insertOrder(t.other.owner, "C-6", [["A", 1]])
      yield* waves.attachOrders(yield* insertWave(t.site.owner, { status_id: 17 }), [inOpenWave])
      yield* waves.attachOrders(yield* insertWave(t.site.owner, { status_id: 20 }), [inCompleteWave])

      const candidates = yield* waves.candidateOrders(t.site.scope)
      assert.deepStrictEqual(candidates.map((c) => c.order_ref), [free, ofSite, inCompleteWave])
      assert.deepStrictEqual(candidates[0], {
        order_ref: free,
        order_id: "C-1",
        client_id: t.client1.owner.client_id,
        order_date: "2030-01-02",
        ship_by_date: "2030-01-03",
        customer_name: "Customer",
        customer_town: "Town",
        carrier_name: "Carrier"
      })
      assert.deepStrictEqual((yield* waves.candidateOrders(t.client2.scope)).map((c) => c.order_ref), [inCompleteWave])
      assert.deepStrictEqual((yield* waves.candidateOrders(t.client1.scope)).map((c) => c.order_ref), [free])
    }))

  it.effect("keeps a second wave creation in the site out until the first commits, so no order joins two waves", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      yield* insertOrder(t.client1.owner, "S-1", [["A", 1]])
      const create = Effect.gen(function*() {
        const candidates = yield* waves.candidateOrders(t.site.scope)
        const wave = yield* insertWave(t.site.owner)
        yield* waves.attachOrders(wave, candidates.map((c) => c.order_ref))
        return candidates.map((c) => c.order_ref)
      })
      const candidates = Effect.map(waves.candidateOrders(t.client1.scope), (c) => c.map((o) => o.order_ref))
      const second = yield* waitsForCommit(create, candidates)
      assert.deepStrictEqual(second, [])
      // The first took the order.
      const [wave] = yield* waves.list(t.site.scope)
      assert.deepStrictEqual((yield* waves.orders(wave.id)).map((o) => o.order_id), ["S-1"])
    }))

  it.effect("lists a wave's orders by their ids' bytes, and sums its quantities in 64 bits, as numbers", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const customer = yield* insertPartner("customer", t.site.owner, "Customer", "Town")
      const ids = ["b", "B", "a", "_", "A"]
      const refs = []
      const max = 2147483647
      for (const id of ids) {
        refs.push(yield* insertOrder(t.site.owner, id, [["A", max], ["B", max]], { customer_id: customer }))
      }
      const wave = yield* insertWave(t.site.owner)
      assert.deepStrictEqual(yield* waves.totals(wave), { order_count: 0, qty_ordered: 0, qty_allocated: 0 })
      yield* waves.attachOrders(wave, refs)
      yield* waves.attachOrders(wave, [])

      const orders = yield* waves.orders(wave)
      assert.deepStrictEqual(orders.map((o) => o.order_id), byCodeUnits(ids))
      assert.deepStrictEqual(orders[0], {
        order_id: "A",
        order_date: null,
        status_id: 14,
        customer_name: "Customer",
        customer_town: "Town",
        ship_by_date: null,
        carrier_name: null,
        ship_dock: null
      })
      assert.deepStrictEqual(yield* waves.totals(wave), {
        order_count: 5,
        qty_ordered: 10 * 2147483647,
        qty_allocated: 0
      })

      const content = yield* insertContent(t.site.owner, { sku_id: "A", qty: 2147483647 })
      const [claimset] = yield* waves.insertClaimsets(wave, [{ claimset_break: "all", pick_type: "Per order" }])
      yield* waves.insertClaims(
        refs.slice(0, 3).map((order, i) =>
          claimOf(t.site.owner, { wave, claimset, content, order }, { order_id: ids[i], line_id: 1, qty: 2147483647 })
        )
      )
      assert.strictEqual((yield* waves.totals(wave)).qty_allocated, 3 * 2147483647)
      const [row] = yield* waves.claimsets(wave)
      assert.deepStrictEqual(row, {
        id: claimset,
        claimset_break: "all",
        status: "released",
        pick_type: "Per order",
        claim_count: 3,
        total_qty: 3 * 2147483647
      })
    }))

  it.effect("inserts claimsets, answering their ids in the order given, and claims, listing them by id", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const order = yield* insertOrder(t.client1.owner, "CL-1", [["A", 5], ["B", 5]])
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const wave = yield* insertWave(t.site.owner)
      const other = yield* insertWave(t.site.owner)
      assert.deepStrictEqual(yield* waves.insertClaimsets(wave, []), [])
      const sets = yield* waves.insertClaimsets(wave, [
        { claimset_break: "z", pick_type: "Per order" },
        { claimset_break: "", pick_type: "Per customer" },
        { claimset_break: "a", pick_type: "Per order" }
      ])
      assert.strictEqual(new Set(sets).size, 3)
      yield* waves.insertClaimsets(other, [{ claimset_break: "z", pick_type: "Per order" }])
      const listed = yield* waves.claimsets(wave)
      assert.deepStrictEqual(listed.map((c) => [c.id, c.claimset_break, c.pick_type, c.claim_count, c.total_qty]), [
        [sets[0], "z", "Per order", 0, 0],
        [sets[1], "", "Per customer", 0, 0],
        [sets[2], "a", "Per order", 0, 0]
      ])

      yield* waves.insertClaims([])
      const claims = [
        claimOf(t.client1.owner, { wave, claimset: sets[2], content, order }, { order_id: "CL-1", line_id: 2, qty: 1 }),
        claimOf(t.client1.owner, { wave, claimset: sets[0], content, order }, { order_id: "CL-1", line_id: 1, qty: 4 })
      ]
      yield* waves.insertClaims(claims)
      const stored = yield* waves.claims(wave)
      assert.deepStrictEqual(stored.map(({ id: _, ...claim }) => claim), claims)
      assert.isTrue(stored[0].id < stored[1].id)
      assert.deepStrictEqual(yield* waves.claims(other), [])
    }))

  it.effect("gives the wave's Released orders with their lines, and locks the stock of SKUs by content id", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const customer = yield* insertPartner("customer", t.client1.owner, "Customer")
      const carrier = yield* insertCarrier(t.site.owner.site_id, "Carrier")
      const released = yield* insertOrder(t.client1.owner, "A-1", [["A", 2], ["B", 3]], {
        customer_id: customer,
        carrier_id: carrier,
        ship_dock: "D1",
        ship_by_date: "2030-02-01"
      })
      const allocated = yield* insertOrder(t.client1.owner, "A-2", [["A", 1]], { status_id: 15 })
      const wave = yield* insertWave(t.site.owner)
      yield* waves.attachOrders(wave, [allocated, released])
      const toAllocate = yield* waves.ordersToAllocate(wave)
      assert.strictEqual(toAllocate.length, 1)
      const { lines, ...header } = toAllocate[0]
      assert.deepStrictEqual(header, {
        order_ref: released,
        order_id: "A-1",
        client_id: t.client1.owner.client_id,
        order_date: null,
        ship_by_date: "2030-02-01",
        ship_dock: "D1",
        customer_name: "Customer",
        carrier_name: "Carrier"
      })
      assert.deepStrictEqual([...lines].sort((a, b) => a.line - b.line), [
        { line: 1, sku_id: "A", qty: 2 },
        { line: 2, sku_id: "B", qty: 3 }
      ])

      const a = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 5, expiry_date: "2030-03-01" })
      const b = yield* insertContent(t.site.owner, { sku_id: "B", qty: 5 })
      const taken = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, qty_allocated: 5 })
      yield* insertContent(t.site.owner, { sku_id: "C", qty: 5 })
      yield* insertContent(t.other.owner, { sku_id: "A", qty: 5 })
      const stock = yield* waves.lockStock(t.site.owner.site_id, ["B", "A"])
      assert.deepStrictEqual(stock.map((s) => s.content_id), [a, b])
      // A content the caller writes as well comes in the same pass, by content id, with nothing free.
      const withTaken = yield* waves.lockStock(t.site.owner.site_id, ["B", "A"], taken)
      assert.deepStrictEqual(withTaken.map((s) => s.content_id), [a, b, taken])
      assert.deepStrictEqual(stock[0], {
        content_id: a,
        sku_id: "A",
        client_id: t.client1.owner.client_id,
        loc_id: "A-01",
        tag_id: "T1",
        expiry_date: "2030-03-01",
        created_at: "2030-01-01T08:00:00.000Z",
        qty: 5,
        qty_allocated: 0,
        qty_tasked_from: 0
      })
      assert.deepStrictEqual(yield* waves.lockStock(t.site.owner.site_id, []), [])
    }))

  it.effect("reads a large wave's orders a page at a time: the first, the keys after a ref, the SKUs, those among refs", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const refs = [
        yield* insertOrder(t.site.owner, "P-1", [["A", 1], ["B", 2]], { order_date: "2030-01-02" }),
        yield* insertOrder(t.site.owner, "P-2", [["C", 3]], { status_id: 15 }),
        yield* insertOrder(t.site.owner, "P-3", [["B", 4]], { ship_by_date: "2030-02-01" }),
        yield* insertOrder(t.site.owner, "P-4", [], {}),
        yield* insertOrder(t.site.owner, "P-5", [["D", 5], ["A", 6]], {})
      ]
      const outside = yield* insertOrder(t.site.owner, "P-6", [["E", 7]])
      const wave = yield* insertWave(t.site.owner)
      yield* waves.attachOrders(wave, refs)
      const [p1, p2, p3, p4, p5] = refs

      const first = yield* waves.ordersToAllocate(wave, 2)
      assert.deepStrictEqual(first.map((order) => order.order_ref), [p1, p3])
      assert.deepStrictEqual([...first[0].lines].sort((a, b) => a.line - b.line), [
        { line: 1, sku_id: "A", qty: 1 },
        { line: 2, sku_id: "B", qty: 2 }
      ])

      const keys = yield* waves.orderKeysToAllocate(wave, 0, 2)
      assert.deepStrictEqual(keys, [
        { order_ref: p1, order_id: "P-1", order_date: "2030-01-02", ship_by_date: null },
        { order_ref: p3, order_id: "P-3", order_date: null, ship_by_date: "2030-02-01" }
      ])
      assert.deepStrictEqual(
        (yield* waves.orderKeysToAllocate(wave, p3, 10)).map((key) => key.order_ref),
        [p4, p5]
      )
      assert.deepStrictEqual(yield* waves.orderKeysToAllocate(wave, p5, 10), [])

      assert.deepStrictEqual([...yield* waves.skusToAllocate(wave)].sort(), ["A", "B", "D"])

      const among = yield* waves.ordersToAllocateAmong(wave, [p5, p2, outside, p4, p1])
      assert.deepStrictEqual(among.map((order) => order.order_ref), [p1, p4, p5])
      assert.deepStrictEqual(among[1].lines, [])
      assert.deepStrictEqual([...among[2].lines].sort((a, b) => a.line - b.line), [
        { line: 1, sku_id: "D", qty: 5 },
        { line: 2, sku_id: "A", qty: 6 }
      ])
      assert.deepStrictEqual(yield* waves.ordersToAllocateAmong(wave, []), [])
    }))

  it.effect("orderKeysToAllocate keeps a second writer of the orders out until the first commits", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const order = yield* insertOrder(t.site.owner, "KL-1", [["A", 1]])
      const wave = yield* insertWave(t.site.owner)
      yield* waves.attachOrders(wave, [order])
      yield* waitsForCommit(waves.orderKeysToAllocate(wave, 0, 10), orders.update(order, { ship_dock: "D" }))
    }))

  it.effect("lock, ordersToAllocate, lockStock and lockClaims keep a second writer out until the first commits", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const { claim, order, wave } = yield* startedWave(t.site.owner, "LK-1")
      const other = yield* startedWave(t.site.owner, "LK-2")
      yield* waitsForCommit(
        Effect.zipRight(waves.lock(t.site.scope, wave), waves.setStatus(wave, 18)),
        Effect.map(waves.lock(t.site.scope, wave), (w) => assert.strictEqual(Option.getOrThrow(w).status_id, 18))
      )
      yield* waves.setOrderStatuses(new Map([[order, 14]]))
      yield* waitsForCommit(waves.ordersToAllocate(wave), orders.update(order, { ship_dock: "D" }))
      yield* waitsForCommit(waves.lockStock(t.site.owner.site_id, ["A"]), waves.lockStock(t.site.owner.site_id, ["A"]))
      yield* waitsForCommit(waves.lockClaims({ waveId: wave }), waves.deleteClaims([claim.id]))
      yield* waitsForCommit(waves.lockClaims({ orderRef: other.order }), waves.deleteClaims([other.claim.id]))
      assert.deepStrictEqual([...yield* waves.claims(wave), ...yield* waves.claims(other.wave)], [])
    }))

  it.effect("lockStock leaves out stock at locations that let no stock out; unmanaged and other sites' locations change nothing", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const at = (loc_id: string, sku_id = "A") => insertContent(t.site.owner, { sku_id, qty: 5, loc_id })
      const unmanaged = yield* at("A-01")
      const active = yield* at("ACTIVE")
      const blockedIn = yield* at("BLOCKED-IN")
      yield* at("BLOCKED-OUT")
      yield* at("BLOCKED")
      yield* at("COUNTING", "B")
      // Another site's record of the same id does not gate this site's stock.
      yield* insertLocations(t.other.owner.site_id, ["A-01"], { status: "Blocked" })
      const everything = yield* waves.lockStock(siteId, ["A", "B"])
      assert.strictEqual(everything.length, 6)

      yield* insertLocations(siteId, ["ACTIVE"])
      yield* insertLocations(siteId, ["BLOCKED-IN"], { status: "Blocked In" })
      yield* insertLocations(siteId, ["BLOCKED-OUT"], { status: "Blocked Out" })
      yield* insertLocations(siteId, ["BLOCKED"], { status: "Blocked" })
      yield* insertLocations(siteId, ["COUNTING"], { status: "Counting", loc_type: "PickFace" })
      const allocatable = yield* waves.lockStock(siteId, ["A", "B"])
      assert.deepStrictEqual(allocatable.map((s) => s.content_id), [unmanaged, active, blockedIn])
      assert.deepStrictEqual(
        allocatable,
        everything.filter((s) => allocatable.some((a) => a.content_id === s.content_id))
      )
      assert.deepStrictEqual(yield* waves.lockStock(siteId, ["B"]), [])
    }))

  it.effect("lockStock keeps a status change of the stock's locations out until the start commits", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, loc_id: "L1" })
      yield* insertLocations(siteId, ["L1", "L2"])
      yield* waitsForCommit(
        waves.lockStock(siteId, ["A"]),
        locations.update(locationOf(siteId, "L1", { status: "Blocked Out" }))
      )
      // The start that comes second sees the status the change committed.
      const seen = yield* waitsForCommit(
        Effect.zipRight(
          locations.find(siteId, "L1", "update"),
          locations.update(locationOf(siteId, "L1", { status: "Blocked" }))
        ),
        waves.lockStock(siteId, ["A"])
      )
      assert.deepStrictEqual(seen, [])
    }))

  it.effect("sets the statuses of many orders at once, and a wave's", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const refs = [
        yield* insertOrder(t.site.owner, "ST-1", []),
        yield* insertOrder(t.site.owner, "ST-2", []),
        yield* insertOrder(t.site.owner, "ST-3", [])
      ]
      yield* waves.setOrderStatuses(new Map([[refs[0], 15], [refs[2], 16]]))
      yield* waves.setOrderStatuses(new Map())
      const statuses = yield* Effect.forEach(["ST-1", "ST-2", "ST-3"], (id) =>
        Effect.map(orders.find(t.site.scope, id), (o) => Option.getOrThrow(o).header.status_id))
      assert.deepStrictEqual(statuses, [15, 14, 16])

      const wave = yield* insertWave(t.site.owner)
      yield* waves.setStatus(wave, 20)
      assert.strictEqual(Option.getOrThrow(yield* waves.find(t.site.scope, wave)).status_id, 20)
    }))

  it.effect("locks the claims of a wave or of an order, and deletes claims with the claimsets they leave empty", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const first = yield* startedWave(t.client1.owner, "D-1")
      const second = yield* startedWave(t.client1.owner, "D-2")
      const [extraSet] = yield* waves.insertClaimsets(first.wave, [{ claimset_break: "extra", pick_type: "Per order" }])
      yield* waves.insertClaims([
        claimOf(t.client1.owner, { ...first, claimset: first.claimset }, { order_id: "D-1", line_id: 1, qty: 1 }),
        claimOf(t.client1.owner, { ...first, claimset: extraSet, order: second.order }, {
          order_id: "D-2",
          line_id: 1,
          qty: 1
        })
      ])
      const ofWave = yield* waves.lockClaims({ waveId: first.wave })
      assert.deepStrictEqual(ofWave, yield* waves.claims(first.wave))
      assert.strictEqual(ofWave.length, 3)
      const ofOrder = yield* waves.lockClaims({ orderRef: second.order })
      assert.deepStrictEqual(ofOrder.map((c) => c.wave_id), [second.wave, first.wave])

      // The extra claimset loses its only claim; the first keeps one of its two.
      yield* waves.deleteClaims([ofWave[0].id, ofWave[2].id])
      yield* waves.deleteClaims([])
      assert.deepStrictEqual((yield* waves.claims(first.wave)).map((c) => c.id), [ofWave[1].id])
      assert.deepStrictEqual((yield* waves.claimsets(first.wave)).map((c) => c.id), [first.claimset])
      assert.strictEqual((yield* waves.claims(second.wave)).length, 1)
    }))

  it.effect("removes a wave with its claimsets and its list of orders, leaving the orders", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const { claim, order, wave } = yield* startedWave(t.site.owner, "RM-1")
      const kept = yield* startedWave(t.site.owner, "RM-2")
      yield* waves.deleteClaims([claim.id])
      yield* waves.remove(wave)
      assert.isTrue(Option.isNone(yield* waves.find(t.site.scope, wave)))
      assert.deepStrictEqual(yield* waves.claimsets(wave), [])
      assert.deepStrictEqual(yield* waves.orders(wave), [])
      assert.deepStrictEqual(yield* waves.totals(wave), { order_count: 0, qty_ordered: 0, qty_allocated: 0 })
      assert.isTrue(Option.isSome(yield* orders.find(t.site.scope, "RM-1")))
      // The order is free for another wave.
      assert.deepStrictEqual((yield* waves.candidateOrders(t.site.scope)).map((c) => c.order_id), [])
      yield* waves.setOrderStatuses(new Map([[order, 14]]))
      assert.deepStrictEqual((yield* waves.candidateOrders(t.site.scope)).map((c) => c.order_id), ["RM-1"])
      assert.strictEqual((yield* waves.claims(kept.wave)).length, 1)
    }))

  it.effect("gives the site's default dock", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      assert.strictEqual(yield* waves.defaultDock(t.site.owner.site_id), "DOCK")
    }))
})
