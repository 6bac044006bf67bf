import { assert, describe, it } from "@effect/vitest"
import {
  Capacity,
  type Load,
  type LocationWithOccupancy,
  makePutawayPlanner,
  planPutaway,
  type PutawaySku
} from "@wms/core"
import * as fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"
import { location } from "./Fixtures.js"

const load = (fields: Partial<Load> = {}): Load => ({
  sku_id: "A",
  client_id: null,
  tag_id: "T-1",
  qty: 1,
  each_weight: null,
  each_volume: null,
  ...fields
})

/** 10 of A under tag T-1 at RECEIVING (content 40). */
const content = { content_id: 40, sku_id: "A", client_id: null, tag_id: "T-1", loc_id: "RECEIVING", qty: 10 }

const skuOf = (fields: Partial<PutawaySku> = {}): PutawaySku => ({
  preferred_putaway_location: null,
  qty_on_full_pallet: null,
  each_weight: null,
  each_volume: null,
  ...fields
})

const targets = (plan: ReturnType<typeof planPutaway>) => plan.tasks.map((t) => [t.to_loc_id, t.qty])

describe("the capacity rule", () => {
  it("counts what is on hand and inbound against every limit set; null is unlimited", () => {
    const unlimited = location({ occupancy: { tags: 50, weight: 1e9, volume: 1e9, tag_ids: ["X"] } })
    assert.isTrue(Capacity.fits(unlimited, load({ qty: 1e6, each_weight: 5, each_volume: 5 })))

    // Two tags: one on hand, one inbound. A third does not fit; one of those two adds no tag.
    const twoTags = location({ max_tags: 2, occupancy: { tags: 1, inbound_tags: 1, tag_ids: ["T-1", "T-2"] } })
    assert.isFalse(Capacity.fits(twoTags, load({ tag_id: "T-3" })))
    assert.isTrue(Capacity.fits(twoTags, load({ tag_id: "T-2", qty: 500 })))

    // 60 kg on hand and 30 inbound of 100: 10 more fit, 11 do not; a SKU without weight weighs nothing.
    const heavy = location({ max_weight: 100, occupancy: { weight: 60, inbound_weight: 30 } })
    assert.isTrue(Capacity.fits(heavy, load({ qty: 5, each_weight: 2 })))
    assert.isFalse(Capacity.fits(heavy, load({ qty: 11, each_weight: 1 })))
    assert.isTrue(Capacity.fits(heavy, load({ qty: 1000, each_weight: null })))

    const bulky = location({ max_volume: 1000, occupancy: { volume: 400, inbound_volume: 500 } })
    assert.isTrue(Capacity.fits(bulky, load({ qty: 4, each_volume: 25 })))
    assert.isFalse(Capacity.fits(bulky, load({ qty: 5, each_volume: 25 })))
  })

  it("says over capacity when on hand and inbound exceed a limit, which only facts can bring about", () => {
    assert.isFalse(Capacity.overCapacity(location({ max_tags: 2, occupancy: { tags: 1, inbound_tags: 1 } })))
    assert.isTrue(Capacity.overCapacity(location({ max_tags: 2, occupancy: { tags: 2, inbound_tags: 1 } })))
    assert.isTrue(Capacity.overCapacity(location({ max_weight: 10, occupancy: { weight: 8, inbound_weight: 3 } })))
    assert.isTrue(Capacity.overCapacity(location({ max_volume: 0, occupancy: { volume: 0.5 } })))
    assert.isFalse(Capacity.overCapacity(location({ occupancy: { tags: 9, weight: 9, volume: 9 } })))
  })

  it("fits no load of a new tag where there is no room for a new tag, which planned loads never give back", () => {
    const arbLocation = fc.record({
      max_tags: fc.option(fc.nat(3), { nil: null }),
      max_weight: fc.option(fc.nat(20), { nil: null }),
      max_volume: fc.option(fc.nat(20), { nil: null }),
      tag_ids: fc.uniqueArray(fc.constantFrom("T-1", "T-2", "T-3"), { maxLength: 3 }),
      weight: fc.nat(25),
      inbound_volume: fc.nat(25)
    }).map(({ inbound_volume, tag_ids, weight, ...fields }) =>
      location({ ...fields, occupancy: { tags: tag_ids.length, tag_ids, weight, inbound_volume } })
    )
    const arbLoad = fc.record({
      tag_id: fc.constantFrom("T-1", "T-2", "T-3", "T-4"),
      qty: fc.integer({ min: 1, max: 10 }),
      each_weight: fc.option(fc.constantFrom(0, 0.5, 2), { nil: null }),
      each_volume: fc.option(fc.constantFrom(0, 1), { nil: null })
    }).map((fields) => load(fields))
    fc.assert(
      fc.property(arbLocation, arbLoad, arbLoad, (at, first, next) => {
        if (!at.occupancy.tag_ids.includes(next.tag_id) && Capacity.fits(at, next)) {
          assert.isTrue(Capacity.roomForNewTag(at))
        }
        if (!Capacity.roomForNewTag(at)) assert.isFalse(Capacity.roomForNewTag(Capacity.withInbound(at, first)))
      }),
      { numRuns: propertyRuns(500) }
    )
  })

  it("counts a planned task as inbound: its quantity, weight, volume, tag and holding", () => {
    const before = location({ occupancy: { tag_ids: ["T-1"], holdings: [{ sku_id: "A", client_id: null }] } })
    const after = Capacity.withInbound(
      Capacity.withInbound(before, load({ qty: 3, each_weight: 2, each_volume: 10 })),
      load({ sku_id: "B", client_id: "c1", tag_id: "T-2", qty: 1 })
    )
    assert.deepStrictEqual(after.occupancy, {
      ...before.occupancy,
      inbound_qty: 4,
      inbound_tags: 1,
      inbound_weight: 6,
      inbound_volume: 30,
      tag_ids: ["T-1", "T-2"],
      holdings: [{ sku_id: "A", client_id: null }, { sku_id: "B", client_id: "c1" }]
    })
  })
})

describe("the putaway planner", () => {
  it("sends full pallets to the preferred location while it has room, then to storage by sequence and id", () => {
    const candidates = [
      location({ loc_id: "S-03", sequence: 1 }),
      location({ loc_id: "S-02", sequence: 1 }),
      location({ loc_id: "S-01", sequence: 5 }),
      location({ loc_id: "P-01", loc_type: "PickFace", max_tags: 2 })
    ]
    const plan = planPutaway(content, skuOf({ preferred_putaway_location: "P-01", qty_on_full_pallet: 3 }), candidates)
    // Each pallet is a tag of its own, though all share T-1: P-01 takes two.
    assert.deepStrictEqual(targets(plan), [["P-01", 3], ["P-01", 3], ["S-02", 3], ["S-02", 1]])
    assert.strictEqual(plan.unplaced, 0)
    const after = new Map(plan.candidates.map((l) => [l.loc_id, l.occupancy]))
    assert.strictEqual(after.get("P-01")!.inbound_qty, 6)
    assert.strictEqual(after.get("P-01")!.inbound_tags, 2)
    assert.strictEqual(after.get("S-02")!.inbound_qty, 4)
  })

  it("without full pallets puts the whole quantity away as one task; an unmanaged or unfit preferred is passed over", () => {
    const candidates = [location({ loc_id: "S-01", sequence: 2 }), location({ loc_id: "S-02", sequence: 1 })]
    for (const qty_on_full_pallet of [null, 0, 11]) {
      assert.deepStrictEqual(targets(planPutaway(content, skuOf({ qty_on_full_pallet }), candidates)), [["S-02", 10]])
    }
    assert.deepStrictEqual(
      targets(planPutaway(content, skuOf({ preferred_putaway_location: "NOT-MANAGED" }), candidates)),
      [["S-02", 10]]
    )
    const blocked = [...candidates, location({ loc_id: "P-01", status: "Blocked In" })]
    assert.deepStrictEqual(
      targets(planPutaway(content, skuOf({ preferred_putaway_location: "P-01" }), blocked)),
      [["S-02", 10]]
    )
  })

  it("prefers storage in the preferred location's zone", () => {
    const candidates = [
      location({ loc_id: "P-01", zone: "COLD", max_weight: 10 }),
      location({ loc_id: "S-01", zone: "DRY", sequence: 1 }),
      location({ loc_id: "S-02", zone: "COLD", sequence: 9 }),
      location({ loc_id: "S-03", sequence: 2 })
    ]
    const sku = skuOf({ preferred_putaway_location: "P-01", qty_on_full_pallet: 4, each_weight: 2 })
    // P-01 takes one pallet of 8 kg; the second would weigh 16: to the zone's S-02, though S-01 comes first.
    assert.deepStrictEqual(targets(planPutaway(content, sku, candidates)), [["P-01", 4], ["S-02", 4], ["S-02", 2]])
    // Without a zone on the preferred location, only sequence counts.
    const noZone = candidates.map((l) => (l.loc_id === "P-01" ? { ...l, zone: null } : l))
    assert.deepStrictEqual(targets(planPutaway(content, sku, noZone)), [["P-01", 4], ["S-01", 4], ["S-01", 2]])
  })

  it("never mixes clients: no location dedicated to, or holding another SKU of, another client", () => {
    const ofC1 = { ...content, sku_id: "C1-SKU", client_id: "c1" }
    const candidates = [
      location({ loc_id: "S-01", client_id: "c2" }),
      location({ loc_id: "S-02", occupancy: { holdings: [{ sku_id: "B", client_id: "c2" }] } }),
      location({ loc_id: "S-03", occupancy: { holdings: [{ sku_id: "OTHER", client_id: "c1" }] } }),
      location({ loc_id: "S-04", client_id: "c1" })
    ]
    assert.deepStrictEqual(targets(planPutaway(ofC1, skuOf(), candidates)), [["S-03", 10]])
    assert.deepStrictEqual(targets(planPutaway(ofC1, skuOf(), candidates.slice(0, 2))), [])
    // The site's own stock goes to no location dedicated to a client.
    assert.deepStrictEqual(targets(planPutaway(content, skuOf(), [candidates[0], candidates[3]])), [])
  })

  it("leaves unplaced what finds no room, pallets and rest alike, and never targets the content's own location", () => {
    const candidates = [
      location({ loc_id: "S-01", max_tags: 1 }),
      location({ loc_id: "S-02", status: "Blocked" }),
      location({ loc_id: "RECEIVING" })
    ]
    const plan = planPutaway(content, skuOf({ qty_on_full_pallet: 4 }), candidates)
    // One pallet fills S-01; the second has no room, the rest neither (S-01 holds its one tag).
    assert.deepStrictEqual(targets(plan), [["S-01", 4]])
    assert.strictEqual(plan.unplaced, 6)
    const empty = planPutaway(content, skuOf({ qty_on_full_pallet: 4 }), [])
    assert.deepStrictEqual([targets(empty), empty.unplaced], [[], 10])
  })

  it("is deterministic: the candidates' order does not matter, and what it plans fits and adds up", () => {
    const arbLocation = fc.record({
      loc_id: fc.constantFrom("A", "B", "C", "D", "E"),
      zone: fc.constantFrom(null, "Z1", "Z2"),
      sequence: fc.nat(3),
      max_tags: fc.option(fc.nat(3), { nil: null }),
      max_weight: fc.option(fc.nat(40), { nil: null }),
      status: fc.constantFrom("Active", "Blocked In", "Blocked Out") as fc.Arbitrary<LocationWithOccupancy["status"]>
    }).map((fields) => location(fields))
    fc.assert(fc.property(
      fc.uniqueArray(arbLocation, { selector: (l) => l.loc_id, maxLength: 5 }),
      fc.integer({ min: 1, max: 30 }),
      fc.option(fc.nat(8), { nil: null }),
      fc.option(fc.constantFrom("A", "B", "X"), { nil: null }),
      (candidates, qty, qty_on_full_pallet, preferred) => {
        const sku = skuOf({ preferred_putaway_location: preferred, qty_on_full_pallet, each_weight: 1 })
        const stock = { ...content, qty }
        const plan = planPutaway(stock, sku, candidates)
        assert.deepStrictEqual(planPutaway(stock, sku, [...candidates].reverse()).tasks, plan.tasks)
        assert.strictEqual(plan.tasks.reduce((n, t) => n + t.qty, 0) + plan.unplaced, qty)
        for (const after of plan.candidates) {
          if (after.occupancy.inbound_qty > 0) {
            assert.isFalse(Capacity.overCapacity(after), after.loc_id)
            assert.notStrictEqual(after.status, "Blocked In")
          }
        }
      }
    ))
  })

  it("plans a run of contents as one content after the other, each on what the ones before it left", () => {
    const arbLocation = fc.record({
      loc_id: fc.constantFrom("A", "B", "C", "D", "E", "F", "G"),
      loc_type: fc.constantFrom("Storage", "Storage", "Storage", "PickFace") as fc.Arbitrary<
        LocationWithOccupancy["loc_type"]
      >,
      zone: fc.constantFrom(null, "Z1", "Z2"),
      sequence: fc.nat(3),
      max_tags: fc.option(fc.nat(3), { nil: null }),
      max_weight: fc.option(fc.nat(40), { nil: null }),
      client_id: fc.constantFrom(null, null, "c1"),
      status: fc.constantFrom("Active", "Blocked In", "Blocked Out") as fc.Arbitrary<LocationWithOccupancy["status"]>,
      // A tag on hand there already, which a content of that tag may join without a new tag's room.
      held: fc.option(fc.constantFrom("T-1", "T-2"), { nil: null })
    }).map(({ held, ...fields }) =>
      location({
        ...fields,
        occupancy: held === null
          ? {}
          : { tags: 1, tag_ids: [held], holdings: [{ sku_id: "A", client_id: fields.client_id }] }
      })
    )
    const arbContent = fc.record({
      sku_id: fc.constantFrom("A", "B"),
      client_id: fc.constantFrom(null, "c1"),
      tag_id: fc.constantFrom("T-1", "T-2", "T-3"),
      loc_id: fc.constantFrom("RECEIVING", "A"),
      qty: fc.integer({ min: 1, max: 20 })
    })
    const arbSku = fc.record({
      preferred_putaway_location: fc.option(fc.constantFrom("A", "D", "X"), { nil: null }),
      qty_on_full_pallet: fc.option(fc.nat(6), { nil: null }),
      each_weight: fc.option(fc.constantFrom(0, 1, 3), { nil: null }),
      each_volume: fc.constant(null)
    })
    fc.assert(
      fc.property(
        fc.uniqueArray(arbLocation, { selector: (l) => l.loc_id, maxLength: 7 }),
        fc.array(fc.tuple(arbContent, arbSku), { maxLength: 12 }),
        (candidates, run) => {
          const planner = makePutawayPlanner(candidates)
          let state: ReadonlyArray<LocationWithOccupancy> = candidates
          run.forEach(([stock, sku], i) => {
            const content = { ...stock, content_id: i + 1 }
            const faces = [{ loc_id: "G", room: 10 }]
            const alone = planPutaway(content, sku, state, faces)
            state = alone.candidates
            assert.deepStrictEqual(planner.plan(content, sku, faces), { tasks: alone.tasks, unplaced: alone.unplaced })
          })
          assert.deepStrictEqual(planner.candidates(), state)
        }
      ),
      { numRuns: propertyRuns(300) }
    )
  })
})
