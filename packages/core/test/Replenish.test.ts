import { assert, describe, it } from "@effect/vitest"
import {
  compareStock,
  type FaceStock,
  planPutaway,
  planReplenishment,
  type StockToAllocate,
  type StoredPickFace
} from "@wms/core"
import * as fc from "fast-check"
import { location } from "./Fixtures.js"

const setting = (fields: Partial<StoredPickFace> = {}): StoredPickFace => ({
  site_id: "main",
  sku_id: "A",
  loc_id: "PF-1",
  min_qty: 5,
  max_qty: 20,
  replenish_multiple: null,
  ...fields
})

const faceStock = (fields: Partial<FaceStock> = {}): FaceStock => ({
  qty: 0,
  qty_allocated: 0,
  inbound: 0,
  replenishing: 0,
  ...fields
})

const face = location({ loc_id: "PF-1", loc_type: "PickFace" })
const sku = { client_id: null, each_weight: null, each_volume: null }
const today = "2030-06-01"

/** A reserve content of A: `qty` available under tag T-<id>. */
const reserve = (id: number, qty: number, fields: Partial<StockToAllocate> = {}): StockToAllocate => ({
  content_id: id,
  sku_id: "A",
  client_id: null,
  loc_id: `R-${id}`,
  tag_id: `T-${id}`,
  expiry_date: null,
  created_at: "2030-01-01T00:00:00.000Z",
  qty,
  qty_allocated: 0,
  qty_tasked_from: 0,
  ...fields
})

const taken = (plan: ReturnType<typeof planReplenishment>) => plan.tasks.map((t) => [t.content_id, t.qty])

describe("the replenishment planner", () => {
  it("plans nothing at min_qty or above; below it, up to max_qty", () => {
    const stock = [reserve(1, 100)]
    assert.deepStrictEqual(taken(planReplenishment(setting(), faceStock({ qty: 5 }), face, sku, stock, today)), [])
    // Level 8 + 2 inbound − 6 allocated = 4 < 5: 16 bring it to 20.
    const plan = planReplenishment(
      setting(),
      faceStock({ qty: 8, inbound: 2, qty_allocated: 6 }),
      face,
      sku,
      stock,
      today
    )
    assert.deepStrictEqual(taken(plan), [[1, 16]])
    assert.strictEqual(plan.face.occupancy.inbound_qty, 16)
  })

  it("takes the reserve in FEFO order, skipping expired stock and other SKUs and clients", () => {
    const stock = [
      reserve(1, 4, { expiry_date: null }),
      reserve(2, 6, { expiry_date: "2030-09-01" }),
      reserve(3, 50, { expiry_date: "2030-01-01" }),
      reserve(4, 3, { expiry_date: "2030-07-01" }),
      reserve(5, 50, { sku_id: "B" }),
      reserve(6, 50, { client_id: "C-2", expiry_date: "2030-06-01" })
    ]
    assert.deepStrictEqual(taken(planReplenishment(setting(), faceStock(), face, sku, stock, today)), [
      [4, 3],
      [2, 6],
      [1, 4]
    ])
  })

  it("rounds down to the multiple, also when room or reserve cut the quantity", () => {
    const multiple = setting({ replenish_multiple: 6 })
    // 20 wanted: 18 by the multiple, two whole tags of 6 and one of 6 out of 10.
    assert.deepStrictEqual(
      taken(planReplenishment(multiple, faceStock(), face, sku, [reserve(1, 6), reserve(2, 6), reserve(3, 10)], today)),
      [[1, 6], [2, 6], [3, 6]]
    )
    // A reserve of 8 gives 6.
    assert.deepStrictEqual(taken(planReplenishment(multiple, faceStock(), face, sku, [reserve(1, 8)], today)), [[1, 6]])
    // Room for 11 kg at 1 kg each gives 6; room for 5 gives nothing.
    const heavy = { ...sku, each_weight: 1 }
    const room = (kg: number) => location({ loc_id: "PF-1", loc_type: "PickFace", max_weight: kg })
    assert.deepStrictEqual(taken(planReplenishment(multiple, faceStock(), room(11), heavy, [reserve(1, 99)], today)), [
      [1, 6]
    ])
    assert.deepStrictEqual(taken(planReplenishment(multiple, faceStock(), room(5), heavy, [reserve(1, 99)], today)), [])
  })

  it("stops at a tag the face has no room for, rather than skip FEFO", () => {
    const oneTag = location({ loc_id: "PF-1", loc_type: "PickFace", max_tags: 1 })
    assert.deepStrictEqual(
      taken(planReplenishment(setting(), faceStock(), oneTag, sku, [reserve(1, 4), reserve(2, 50)], today)),
      [[1, 4]]
    )
  })

  it("never plans above max_qty or over capacity, and takes sources in FEFO order (property)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 1, max: 40 }),
      fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
      fc.record({ qty: fc.nat(50), qty_allocated: fc.nat(50), inbound: fc.nat(20) }),
      fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
      fc.array(
        fc.tuple(
          fc.integer({ min: 1, max: 30 }),
          fc.option(fc.constantFrom("2030-01-01", "2030-07-01", "2031-01-01"), { nil: null })
        ),
        { maxLength: 6 }
      ),
      (min, span, multiple, stock, maxWeight, sources) => {
        const s = setting({ min_qty: min, max_qty: min + span, replenish_multiple: multiple })
        const f = faceStock({ ...stock, qty_allocated: Math.min(stock.qty, stock.qty_allocated) })
        const at = location({
          loc_id: "PF-1",
          loc_type: "PickFace",
          max_weight: maxWeight,
          occupancy: { weight: f.qty, inbound_weight: f.inbound }
        })
        const heavy = { ...sku, each_weight: 1 }
        const reserveStock = sources.map(([qty, expiry], i) => reserve(i + 1, qty, { expiry_date: expiry }))
        const plan = planReplenishment(s, f, at, heavy, reserveStock, today)
        const total = plan.tasks.reduce((sum, t) => sum + t.qty, 0)
        const level = f.qty + f.inbound - f.qty_allocated
        if (level >= s.min_qty) assert.strictEqual(total, 0)
        assert.isAtMost(level + total, Math.max(level, s.max_qty))
        if (multiple !== null) assert.strictEqual(total % multiple, 0)
        if (maxWeight !== null && total > 0) assert.isAtMost(f.qty + f.inbound + total, maxWeight)
        // FEFO: every eligible source before a taken one was taken whole.
        const eligible = reserveStock.filter((c) => c.expiry_date === null || c.expiry_date >= today).sort(compareStock)
        const takenIds = plan.tasks.map((t) => t.content_id)
        assert.deepStrictEqual(takenIds, eligible.slice(0, takenIds.length).map((c) => c.content_id))
        for (const [i, t] of plan.tasks.slice(0, -1).entries()) assert.strictEqual(t.qty, eligible[i].qty)
      }
    ))
  })
})

describe("putaway to a pick face", () => {
  const content = { content_id: 40, sku_id: "A", client_id: null, tag_id: "T-1", loc_id: "RECEIVING", qty: 27 }
  const putawaySku = { preferred_putaway_location: null, qty_on_full_pallet: 10, each_weight: null, each_volume: null }
  const storage = location({ loc_id: "S-1" })
  const pickFace = location({ loc_id: "PF-1", loc_type: "PickFace" })

  it("sends the rest below a full pallet to the first face with room up to max_qty, full pallets never", () => {
    const plan = planPutaway(content, putawaySku, [storage, pickFace], [{ loc_id: "PF-1", room: 7 }])
    assert.deepStrictEqual(plan.tasks.map((t) => [t.to_loc_id, t.qty]), [["S-1", 10], ["S-1", 10], ["PF-1", 7]])
  })

  it("sends it to storage when the face's room is short, or the face takes no stock in", () => {
    const short = planPutaway(content, putawaySku, [storage, pickFace], [{ loc_id: "PF-1", room: 6 }])
    assert.deepStrictEqual(short.tasks.map((t) => [t.to_loc_id, t.qty]), [["S-1", 10], ["S-1", 10], ["S-1", 7]])
    const blocked = location({ loc_id: "PF-1", loc_type: "PickFace", status: "Blocked In" })
    const refused = planPutaway(content, putawaySku, [storage, blocked], [{ loc_id: "PF-1", room: 70 }])
    assert.deepStrictEqual(refused.tasks.map((t) => t.to_loc_id), ["S-1", "S-1", "S-1"])
  })
})
