/**
 * The contract of `HoldRepository` and of the stores' held stock on both stores (spec §1): holds
 * with the quantity they cover, the scope rule, what SKU, lot, location and content holds cover
 * (now and later), a content hold carried by a movement, held stock and Quarantine locations left
 * out of a wave's and a replenishment's free stock, the open work on covered stock, the site's
 * holds lock, and a lot's history: the rows that brought it in and sent it out, of every content.
 */
import { assert } from "@effect/vitest"
import {
  HoldRepository,
  type HoldScope,
  InventoryRepository,
  Ledger,
  type NewStoredHold,
  type Owner,
  PickFaceRepository,
  WaveRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import {
  fresh,
  insertContent,
  insertLocations,
  insertOrder,
  insertPartner,
  insertTasks,
  makeTenants,
  onEachStore,
  taskOf,
  waitsForCommit
} from "./Contract.js"

const noScope: HoldScope = {
  client_id: null,
  content_id: null,
  sku_id: null,
  tag_id: null,
  expiry_date: null,
  loc_id: null
}

const holdOf = (owner: Owner, scope: Partial<HoldScope>): NewStoredHold => ({
  ...noScope,
  ...scope,
  site_id: owner.site_id,
  client_id: owner.client_id,
  reason_code: "QA",
  notes: null,
  deallocate: false,
  created_by: "qa",
  created_at: "2030-01-01T09:00:00.000Z"
})

const insertHold = (owner: Owner, scope: Partial<HoldScope>) =>
  Effect.flatMap(HoldRepository, (holds) => holds.insert(holdOf(owner, scope)))

const coveredIds = (holdId: number) =>
  Effect.map(
    Effect.flatMap(HoldRepository, (holds) => holds.coveredContents(holdId, false)),
    (contents) => contents.map((content) => content.content_id)
  )

onEachStore("HoldRepository", (it) => {
  it.effect("inserts an Active hold and reads it back with what it covers now; a client sees its own", () =>
    Effect.gen(function*() {
      const holds = yield* HoldRepository
      const t = yield* makeTenants
      yield* insertContent(t.client1.owner, { sku_id: "A", qty: 5, tag_id: "L1" })
      yield* insertContent(t.client1.owner, { sku_id: "A", qty: 3, tag_id: "L2", loc_id: "B-01" })
      yield* insertContent(t.client2.owner, { sku_id: "A", qty: 7, tag_id: "L1" })
      const id = yield* insertHold(t.site.owner, { sku_id: "A", tag_id: "L1" })
      const found = Option.getOrThrow(yield* holds.find(t.site.scope, id, false))
      assert.deepStrictEqual(found, {
        id,
        site_id: t.site.owner.site_id,
        client_id: null,
        content_id: null,
        sku_id: "A",
        tag_id: "L1",
        expiry_date: null,
        loc_id: null,
        reason_code: "QA",
        notes: null,
        status_id: 24,
        deallocate: false,
        created_by: "qa",
        created_at: "2030-01-01T09:00:00.000Z",
        released_by: null,
        released_at: null,
        release_notes: null,
        qty_covered: 12
      })
      // A client's hold covers only the client's stock.
      const own = yield* insertHold(t.client1.owner, { sku_id: "A" })
      assert.strictEqual(Option.getOrThrow(yield* holds.find(t.client1.scope, own, true)).qty_covered, 8)
      assert.isTrue(Option.isNone(yield* holds.find(t.client2.scope, own, false)))
      assert.isTrue(Option.isNone(yield* holds.find(t.other.scope, id, false)))
      assert.deepStrictEqual(
        (yield* holds.list(t.site.scope, { status_id: 24 }, {})).map((hold) => hold.id),
        [id, own]
      )
      assert.deepStrictEqual(
        (yield* holds.list(t.client1.scope, { status_id: 24, sku_id: "A", reason_code: "QA" }, {})).map((h) => h.id),
        [own]
      )
      assert.deepStrictEqual(yield* holds.list(t.site.scope, { status_id: 24, loc_id: "B-01" }, {}), [])
    }))

  it.effect("a SKU, lot or location hold covers what matches its scope, also stock that enters it later", () =>
    Effect.gen(function*() {
      const t = yield* makeTenants
      const owner = t.site.owner
      const a1 = yield* insertContent(owner, { sku_id: "A", qty: 5, tag_id: "L1", expiry_date: "2031-01-01" })
      const a2 = yield* insertContent(owner, { sku_id: "A", qty: 5, tag_id: "L2", loc_id: "B-01" })
      const b = yield* insertContent(owner, { sku_id: "B", qty: 5, loc_id: "B-01" })
      const lot = yield* insertHold(owner, { sku_id: "A", expiry_date: "2031-01-01" })
      const place = yield* insertHold(owner, { loc_id: "B-01" })
      const skuThere = yield* insertHold(owner, { loc_id: "B-01", sku_id: "B" })
      assert.deepStrictEqual(yield* coveredIds(lot), [a1])
      assert.deepStrictEqual(yield* coveredIds(place), [a2, b])
      assert.deepStrictEqual(yield* coveredIds(skuThere), [b])
      const later = yield* insertContent(owner, { sku_id: "A", qty: 1, tag_id: "L9", expiry_date: "2031-01-01" })
      assert.deepStrictEqual(yield* coveredIds(lot), [a1, later])
      const inventory = yield* InventoryRepository
      const held = yield* inventory.holdsOn([a1, a2, b, later, 999_999])
      assert.deepStrictEqual([...held.keys()], [a1, a2, b, later])
      assert.deepStrictEqual(held.get(b), [{ hold_id: place, reason_code: "QA" }, {
        hold_id: skuThere,
        reason_code: "QA"
      }])
      // Released, it covers nothing and counts nothing.
      const holds = yield* HoldRepository
      assert.isTrue(
        yield* holds.release(place, { released_by: "qa", released_at: "2030-01-02T00:00:00.000Z", release_notes: "ok" })
      )
      assert.isFalse(
        yield* holds.release(place, { released_by: "qa", released_at: "2030-01-02T00:00:00.000Z", release_notes: null })
      )
      assert.deepStrictEqual(yield* coveredIds(place), [])
      const released = Option.getOrThrow(yield* holds.find(t.site.scope, place, false))
      assert.deepStrictEqual(
        [released.status_id, released.released_by, released.release_notes, released.qty_covered],
        [14, "qa", "ok", 0]
      )
      assert.deepStrictEqual((yield* inventory.holdsOn([a2])).get(a2), undefined)
    }))

  it.effect("a content hold covers the contents it lists, and a movement from one carries it once", () =>
    Effect.gen(function*() {
      const holds = yield* HoldRepository
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const source = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5 })
      const moved = yield* insertContent(t.site.owner, { sku_id: "A", qty: 0, loc_id: "Q-01" })
      const hold = yield* insertHold(t.site.owner, { content_id: source })
      yield* holds.coverContents(hold, [source])
      yield* holds.coverContents(hold, [source])
      assert.deepStrictEqual(yield* coveredIds(hold), [source])
      assert.deepStrictEqual(yield* inventory.carryContentHolds(source, moved), [{ hold_id: hold, reason_code: "QA" }])
      assert.deepStrictEqual(yield* inventory.carryContentHolds(source, moved), [])
      assert.deepStrictEqual(yield* coveredIds(hold), [source, moved])
    }))

  it.effect("a wave's and a replenishment's free stock leave out held stock and Quarantine locations", () =>
    Effect.gen(function*() {
      const waves = yield* WaveRepository
      const faces = yield* PickFaceRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["S-01", "S-02"])
      yield* insertLocations(siteId, ["Q-01"], { loc_type: "Quarantine" })
      const free = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, loc_id: "S-01" })
      const lot = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, loc_id: "S-01", tag_id: "BAD" })
      const placed = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, loc_id: "S-02" })
      const single = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, loc_id: "S-01", tag_id: "ONE" })
      const quarantined = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, loc_id: "Q-01" })
      const stockIds = Effect.map(waves.lockStock(siteId, ["A"]), (stock) => stock.map((s) => s.content_id))
      const reserveIds = Effect.map(faces.lockReserve(siteId, ["A"]), (stock) => stock.map((s) => s.content_id))
      assert.deepStrictEqual(yield* stockIds, [free, lot, placed, single])
      yield* insertHold(t.site.owner, { sku_id: "A", tag_id: "BAD" })
      yield* insertHold(t.site.owner, { loc_id: "S-02" })
      const holds = yield* HoldRepository
      yield* holds.coverContents(yield* insertHold(t.site.owner, { content_id: single }), [single])
      assert.deepStrictEqual(yield* stockIds, [free])
      assert.deepStrictEqual(yield* reserveIds, [free])
      // The content a short pick writes comes whatever holds it.
      assert.deepStrictEqual(
        (yield* waves.lockStock(siteId, ["A"], lot)).map((s) => s.content_id),
        [free, lot]
      )
      assert.notInclude(yield* stockIds, quarantined)
    }))

  it.effect("open work on covered stock: allocated claims and Open movement tasks, by scope or by content", () =>
    Effect.gen(function*() {
      const holds = yield* HoldRepository
      const t = yield* makeTenants
      const held = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5, tag_id: "BAD" })
      const other = yield* insertContent(t.site.owner, { sku_id: "A", qty: 5 })
      const [task] = yield* insertTasks([taskOf(t.site.owner, held, { qty: 2 }), taskOf(t.site.owner, other)])
      const byScope = yield* holds.openWork(t.site.owner.site_id, { ...noScope, sku_id: "A", tag_id: "BAD" })
      assert.deepStrictEqual([byScope.claims, byScope.tasks.map((row) => row.id)], [[], [task]])
      const byIds = yield* holds.openWork(t.site.owner.site_id, [held])
      assert.deepStrictEqual(byIds.tasks.map((row) => row.id), [task])
      assert.deepStrictEqual(yield* holds.openWork(t.site.owner.site_id, []), { claims: [], tasks: [] })
    }))

  it.effect("a hold's creation (the holds lock, exclusive) keeps a wave's read of free stock out until it commits", () =>
    Effect.gen(function*() {
      const holds = yield* HoldRepository
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const lot = yield* insertContent(t.site.owner, { sku_id: fresh("SKU"), qty: 5, tag_id: "BAD" })
      const skuId = Option.getOrThrow(yield* (yield* InventoryRepository).findContent(t.site.scope, lot)).sku_id
      const stock = yield* waitsForCommit(
        Effect.zipRight(holds.lockHoldsOf(siteId), insertHold(t.site.owner, { sku_id: skuId, tag_id: "BAD" })),
        waves.lockStock(siteId, [skuId])
      )
      // The wave read after the hold committed: the lot is held.
      assert.deepStrictEqual(stock, [])
    }))

  it.effect("a lot's history: its receipts, returns and transfers in, its shipments and transfers out, of every content", () =>
    Effect.gen(function*() {
      const holds = yield* HoldRepository
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const owner = t.site.owner
      const customer = yield* insertPartner("customer", owner, fresh("Customer"))
      const sold = fresh("SO")
      const transfer = fresh("T")
      yield* insertOrder(owner, sold, [["A", 3]], { customer_id: customer })
      yield* insertOrder(owner, transfer, [["A", 2]], { to_site: t.other.owner.site_id })
      // Received, then picked empty: shipped to a customer and transferred to the other site.
      const received = yield* insertContent(owner, { sku_id: "A", qty: 0, tag_id: "L1" })
      const returned = yield* insertContent(owner, { sku_id: "A", qty: 1, tag_id: "L1", loc_id: "RET" })
      const transferredIn = yield* insertContent(owner, {
        sku_id: "A",
        qty: 4,
        tag_id: "L1",
        expiry_date: "2031-01-01"
      })
      const otherLot = yield* insertContent(owner, { sku_id: "A", qty: 6, tag_id: "L2" })
      const row = (
        type: Parameters<typeof Ledger.entry>[0],
        contentId: number,
        movement: Omit<Ledger.Movement, "from" | "created_at">
      ) =>
        Ledger.entry(type, { ...owner, content_id: contentId, sku_id: "A", tag_id: "L1" }, {
          from: "A-01",
          created_at: "2030-01-02T08:00:00.000Z",
          ...movement
        })
      yield* inventory.appendTransactions([
        row("Receipt", received, { qty: 5, line_id: 1, notes: "PreAdvice PA-1" }),
        row("Pick", received, { qty: 5, order_id: sold, line_id: 1, notes: null }),
        row("Shipment", received, { qty: 3, order_id: sold, line_id: 1, notes: null }),
        row("TransferOut", received, { qty: 2, order_id: transfer, line_id: 1, notes: `Transfer ${transfer}` }),
        // A return names the order it came back from: no customer is read for it.
        row("Return", returned, { qty: 1, order_id: sold, line_id: 1, notes: "Return R-1 line 1" }),
        row("TransferIn", transferredIn, { qty: 4, order_id: "T-IN", line_id: 1, notes: "Transfer T-IN" }),
        row("Hold", transferredIn, { qty: 4, notes: "Hold 1" }),
        { ...row("Receipt", otherLot, { qty: 6, line_id: 1, notes: "PreAdvice PA-2" }), tag_id: "L2" }
      ])
      const history = (scope: typeof t.site.scope, lot: { tag_id: string | null; expiry_date: string | null }) =>
        holds.lotHistory(scope, { sku_id: "A", ...lot })
      const rows = (found: Effect.Effect.Success<ReturnType<typeof history>>) =>
        found.movements.map((m) => [m.transaction_type, m.content_id, m.qty, m.order_id, m.customer_id, m.to_site])
      const lot = yield* history(t.site.scope, { tag_id: "L1", expiry_date: null })
      assert.deepStrictEqual(rows(lot), [
        ["Receipt", received, 5, null, null, null],
        ["Shipment", received, 3, sold, customer, null],
        ["TransferOut", received, 2, transfer, null, t.other.owner.site_id],
        ["Return", returned, 1, sold, null, null],
        ["TransferIn", transferredIn, 4, "T-IN", null, null]
      ])
      assert.deepStrictEqual(
        lot.movements.map((m) => m.notes),
        ["PreAdvice PA-1", null, `Transfer ${transfer}`, "Return R-1 line 1", "Transfer T-IN"]
      )
      assert.deepStrictEqual(lot.contents.map((c) => [c.content_id, c.qty, c.held]), [
        [returned, 1, false],
        [transferredIn, 4, false]
      ])
      // The lot by its expiry too; a client sees none of the site's stock.
      assert.deepStrictEqual(rows(yield* history(t.site.scope, { tag_id: "L1", expiry_date: "2031-01-01" })), [
        ["TransferIn", transferredIn, 4, "T-IN", null, null]
      ])
      assert.deepStrictEqual(yield* history(t.client1.scope, { tag_id: "L1", expiry_date: null }), {
        movements: [],
        contents: []
      })
    }))
})
