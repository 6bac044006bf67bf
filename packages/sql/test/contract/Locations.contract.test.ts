/**
 * The contract of `LocationRepository` on both stores: the location master, the occupancy of
 * locations (stock on hand and open tasks bound there) and the locks taken in `loc_id` order.
 */
import { assert } from "@effect/vitest"
import {
  LocationRepository,
  type LocationWithOccupancy,
  MovementTaskRepository,
  type Occupancy,
  SkuRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import {
  byCodeUnits,
  insertContent,
  insertLocations,
  insertTasks,
  locationOf,
  makeTenants,
  onEachStore,
  skuOf,
  taskOf,
  waitsForCommit
} from "./Contract.js"

const empty: Occupancy = {
  qty_on_hand: 0,
  tags: 0,
  weight: 0,
  volume: 0,
  inbound_qty: 0,
  inbound_tags: 0,
  inbound_weight: 0,
  inbound_volume: 0,
  tag_ids: [],
  holdings: []
}

const idsOf = (locations: ReadonlyArray<LocationWithOccupancy>) => locations.map((location) => location.loc_id)

/** The occupancy with its holdings in one order: the port does not promise theirs. */
const sortedHoldings = (occupancy: Occupancy): Occupancy => ({
  ...occupancy,
  holdings: [...occupancy.holdings].sort((a, b) =>
    a.sku_id === b.sku_id ? String(a.client_id).localeCompare(String(b.client_id)) : a.sku_id < b.sku_id ? -1 : 1
  )
})

onEachStore("LocationRepository", (it) => {
  it.effect("inserts a location once, finds, updates and removes it, with the values' own types", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const stored = locationOf(siteId, "S-01", {
        description: "",
        zone: "Z1",
        sequence: 2147483647,
        max_tags: 3,
        max_weight: 12.5,
        max_volume: 0.25,
        client_id: t.client1.owner.client_id
      })
      assert.isTrue(yield* locations.insert(stored))
      assert.isFalse(yield* locations.insert(locationOf(siteId, "S-01", { loc_type: "Dock" })))
      // Another site has ids of its own.
      assert.isTrue(yield* locations.insert(locationOf(t.other.owner.site_id, "S-01")))
      assert.deepStrictEqual(
        yield* locations.find(siteId, "S-01", "none"),
        Option.some({ ...stored, last_counted: null, occupancy: empty })
      )

      const changed = locationOf(siteId, "S-01", { loc_type: "PickFace", status: "Blocked Out", max_weight: 0 })
      assert.isTrue(yield* locations.update(changed))
      assert.deepStrictEqual(
        yield* locations.find(siteId, "S-01", "share"),
        Option.some({ ...changed, last_counted: null, occupancy: empty })
      )
      assert.isFalse(yield* locations.update(locationOf(siteId, "S-02")))

      yield* locations.remove(siteId, "S-01")
      assert.isTrue(Option.isNone(yield* locations.find(siteId, "S-01", "update")))
      assert.isTrue(Option.isSome(yield* locations.find(t.other.owner.site_id, "S-01", "none")))
    }))

  it.effect("lists a site's locations by loc_id in byte order, by zone, type and status, in windows", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const ids = ["a", "B", "b-1", "B_2", "Z", "aa"]
      yield* insertLocations(siteId, ids)
      yield* insertLocations(t.other.owner.site_id, ["a", "c"])
      assert.isTrue(yield* locations.update(locationOf(siteId, "b-1", { zone: "Z1", status: "Blocked" })))
      assert.isTrue(yield* locations.update(locationOf(siteId, "Z", { zone: "Z1", loc_type: "PickFace" })))
      assert.isTrue(yield* locations.update(locationOf(siteId, "aa", { zone: "Z2", loc_type: "PickFace" })))

      const all = yield* locations.list(siteId, {}, {})
      assert.deepStrictEqual(idsOf(all), byCodeUnits(ids))
      assert.isTrue(all.every((location) => location.site_id === siteId))
      assert.deepStrictEqual(idsOf(yield* locations.list(siteId, { zone: "Z1" }, {})), ["Z", "b-1"])
      assert.deepStrictEqual(idsOf(yield* locations.list(siteId, { loc_type: "PickFace" }, {})), ["Z", "aa"])
      assert.deepStrictEqual(idsOf(yield* locations.list(siteId, { status: "Blocked" }, {})), ["b-1"])
      assert.deepStrictEqual(
        idsOf(yield* locations.list(siteId, { zone: "Z1", loc_type: "PickFace", status: "Active" }, {})),
        ["Z"]
      )
      assert.deepStrictEqual(idsOf(yield* locations.list(siteId, {}, { limit: 2, offset: 1 })), ["B_2", "Z"])
      assert.deepStrictEqual(idsOf(yield* locations.list(siteId, {}, { offset: 4 })), ["aa", "b-1"])
      assert.deepStrictEqual(idsOf(yield* locations.list(siteId, {}, { limit: 0 })), [])
      assert.deepStrictEqual(yield* locations.list(siteId, { zone: "none" }, {}), [])
    }))

  it.effect("counts stock on hand and open inbound tasks: quantities, weights, volumes, distinct tags, holdings", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const skus = yield* SkuRepository
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const client1 = t.client1.owner.client_id
      const client2 = t.client2.owner.client_id
      assert.isTrue(yield* skus.insert(siteId, skuOf("W", client1, { each_weight: 2.5, each_volume: 10 })))
      assert.isTrue(yield* skus.insert(siteId, skuOf("N", client2)))
      yield* insertLocations(siteId, ["L", "M", "EMPTY"])

      const source = yield* insertContent(t.client1.owner, { sku_id: "W", qty: 4, loc_id: "L", tag_id: "T1" })
      yield* insertContent(t.site.owner, { sku_id: "W", qty: 2, loc_id: "L", tag_id: "T1" })
      yield* insertContent(t.client2.owner, { sku_id: "N", qty: 3, loc_id: "L", tag_id: "T2" })
      // Emptied stock, stock elsewhere and stock at another site's location of the same id count nowhere here.
      yield* insertContent(t.client1.owner, { sku_id: "W", qty: 0, loc_id: "L", tag_id: "T9" })
      yield* insertContent(t.client1.owner, { sku_id: "W", qty: 7, loc_id: "M", tag_id: "T5" })
      yield* insertContent(t.other.owner, { sku_id: "W", qty: 100, loc_id: "L", tag_id: "T8" })

      const onTheWay = { from_loc_id: "M", to_loc_id: "L", final_loc_id: "L" }
      const [, , complete, cancelled] = yield* insertTasks([
        taskOf(t.client1.owner, source, { ...onTheWay, sku_id: "W", tag_id: "T3", qty: 5 }),
        // A tag already on hand brings no new one.
        taskOf(t.client1.owner, source, { ...onTheWay, sku_id: "W", tag_id: "T1", qty: 1 }),
        taskOf(t.client1.owner, source, { ...onTheWay, sku_id: "W", tag_id: "T6", qty: 50 }),
        taskOf(t.client1.owner, source, { ...onTheWay, sku_id: "W", tag_id: "T7", qty: 60 }),
        // Leaving L, bound for M: inbound at M only.
        taskOf(t.site.owner, source, { from_loc_id: "L", to_loc_id: "M", final_loc_id: "M", sku_id: "N", qty: 2 })
      ])
      assert.isTrue(yield* tasks.close(complete, { status_id: 20, to_loc_id: "L", final_loc_id: "L" }))
      assert.isTrue(yield* tasks.close(cancelled, { status_id: 21, to_loc_id: "L", final_loc_id: "L" }))

      const atL: Occupancy = {
        qty_on_hand: 9,
        tags: 2,
        weight: 15,
        volume: 60,
        inbound_qty: 6,
        inbound_tags: 1,
        inbound_weight: 15,
        inbound_volume: 60,
        tag_ids: ["T1", "T2", "T3"],
        holdings: [{ sku_id: "N", client_id: client2 }, { sku_id: "W", client_id: client1 }, {
          sku_id: "W",
          client_id: null
        }]
      }
      const atM: Occupancy = {
        qty_on_hand: 7,
        tags: 1,
        weight: 17.5,
        volume: 70,
        inbound_qty: 2,
        inbound_tags: 1,
        inbound_weight: 0,
        inbound_volume: 0,
        tag_ids: ["T1", "T5"],
        holdings: [{ sku_id: "N", client_id: null }, { sku_id: "W", client_id: client1 }]
      }
      const expected = new Map([["EMPTY", empty], ["L", atL], ["M", atM]])
      const check = (found: ReadonlyArray<LocationWithOccupancy>) => {
        for (const location of found) {
          assert.deepStrictEqual(sortedHoldings(location.occupancy), sortedHoldings(expected.get(location.loc_id)!))
        }
      }
      const listed = yield* locations.list(siteId, {}, {})
      assert.deepStrictEqual(idsOf(listed), ["EMPTY", "L", "M"])
      check(listed)
      check(yield* locations.lockMany(siteId, ["M", "L", "EMPTY"], "share"))
      // Bare, the same rows without occupancy; the occupancy of each id asked, in that order.
      const bare = yield* locations.lockManyBare(siteId, ["M", "L", "EMPTY"], "update")
      assert.deepStrictEqual(bare, listed.map(({ occupancy: _, ...location }) => location))
      const occupancies = yield* locations.occupancyOf(siteId, ["M", "UNMANAGED", "EMPTY", "L"])
      assert.deepStrictEqual(occupancies.map(sortedHoldings), [atM, empty, empty, atL].map(sortedHoldings))
      assert.deepStrictEqual(yield* locations.occupancyOf(siteId, []), [])
      check(yield* locations.lockPutawayCandidates(siteId, null))
      check([Option.getOrThrow(yield* locations.find(siteId, "L", "none"))])
    }))

  it.effect("the putaway candidates of a run are Storage, and the managed ones of its preferred locations and faces", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["S-2", "S-1"])
      yield* insertLocations(siteId, ["PF-2", "PF-1", "PF-3"], { loc_type: "PickFace" })
      yield* insertLocations(t.other.owner.site_id, ["PF-4"], { loc_type: "PickFace" })
      const ids = (preferred: string | null, also: ReadonlyArray<string>) =>
        Effect.map(locations.lockPutawayCandidates(siteId, preferred, also), idsOf)
      assert.deepStrictEqual(yield* ids(null, ["PF-2", "NOWHERE", "PF-1", "PF-2", "PF-4"]), [
        "PF-1",
        "PF-2",
        "S-1",
        "S-2"
      ])
      assert.deepStrictEqual(yield* ids("PF-3", ["PF-1"]), ["PF-1", "PF-3", "S-1", "S-2"])
      assert.deepStrictEqual(yield* ids(null, []), ["S-1", "S-2"])
    }))

  it.effect("lockMany takes the managed locations among ids in loc_id order; the putaway candidates are Storage and the preferred one", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["b", "S-2", "a", "S-1"])
      yield* insertLocations(siteId, ["PF", "RCV"], { loc_type: "PickFace" })
      yield* insertLocations(t.other.owner.site_id, ["c"])
      assert.deepStrictEqual(idsOf(yield* locations.lockMany(siteId, ["b", "UNMANAGED", "a", "b", "c"], "update")), [
        "a",
        "b"
      ])
      assert.deepStrictEqual(yield* locations.lockMany(siteId, [], "share"), [])
      assert.deepStrictEqual(yield* locations.lockMany(siteId, ["UNMANAGED"], "share"), [])
      assert.deepStrictEqual(
        (yield* locations.lockManyBare(siteId, ["b", "UNMANAGED", "a", "b", "c"], "share")).map((l) => l.loc_id),
        ["a", "b"]
      )
      assert.deepStrictEqual(yield* locations.lockManyBare(siteId, [], "update"), [])
      assert.deepStrictEqual(idsOf(yield* locations.lockPutawayCandidates(siteId, null)), ["S-1", "S-2", "a", "b"])
      assert.deepStrictEqual(idsOf(yield* locations.lockPutawayCandidates(siteId, "PF")), [
        "PF",
        "S-1",
        "S-2",
        "a",
        "b"
      ])
      assert.deepStrictEqual(idsOf(yield* locations.lockPutawayCandidates(siteId, "a")), ["S-1", "S-2", "a", "b"])
      assert.deepStrictEqual(idsOf(yield* locations.lockPutawayCandidates(siteId, "NOWHERE")), ["S-1", "S-2", "a", "b"])
    }))

  it.effect("says whether stock lies at a location or an open task starts or ends there", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["FULL", "EMPTIED", "FROM", "TO", "CLOSED"])
      yield* insertContent(t.client1.owner, { sku_id: "A", qty: 1, loc_id: "FULL" })
      const emptied = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 0, loc_id: "EMPTIED" })
      yield* insertContent(t.other.owner, { sku_id: "A", qty: 5, loc_id: "CLOSED" })
      const [, , closed] = yield* insertTasks([
        taskOf(t.client1.owner, emptied, { from_loc_id: "FROM", to_loc_id: "ELSEWHERE", final_loc_id: "ELSEWHERE" }),
        taskOf(t.client2.owner, emptied, { from_loc_id: "ELSEWHERE", to_loc_id: "TO", final_loc_id: "TO" }),
        taskOf(t.client1.owner, emptied, { from_loc_id: "CLOSED", to_loc_id: "CLOSED", final_loc_id: "CLOSED" })
      ])
      assert.isTrue(yield* tasks.close(closed, { status_id: 20, to_loc_id: "CLOSED", final_loc_id: "CLOSED" }))
      const holds = yield* Effect.forEach(
        ["FULL", "EMPTIED", "FROM", "TO", "CLOSED", "UNMANAGED"],
        (locId) => locations.holdsStockOrTasks(siteId, locId)
      )
      assert.deepStrictEqual(holds, [true, false, true, true, false, false])
    }))

  it.effect("reads the occupancy of a thousand locations in a list, each its own", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const ids = Array.from({ length: 1000 }, (_, i) => `L${String(i).padStart(4, "0")}`)
      yield* insertLocations(siteId, ids)
      yield* Effect.forEach(ids, (locId, i) =>
        i % 3 === 0 ? insertContent(t.client1.owner, { sku_id: "A", qty: i + 1, loc_id: locId }) : Effect.void)
      const listed = yield* locations.list(siteId, {}, {})
      assert.deepStrictEqual(idsOf(listed), ids)
      assert.deepStrictEqual(
        listed.map((location) =>
          location.occupancy.qty_on_hand
        ),
        ids.map((_, i) => (i % 3 === 0 ? i + 1 : 0))
      )
      const locked = yield* locations.lockMany(siteId, [...ids].reverse(), "update")
      assert.deepStrictEqual(locked, listed)
    }))

  it.effect("find, lockMany and lockPutawayCandidates keep a writer out until the first commits; occupancy is read after the lock", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["L1", "L2"])
      yield* waitsForCommit(
        locations.lockMany(siteId, ["L2", "L1"], "update"),
        locations.find(siteId, "L1", "update")
      )
      yield* waitsForCommit(
        locations.find(siteId, "L2", "update"),
        locations.lockMany(siteId, ["L1", "L2"], "share")
      )
      yield* waitsForCommit(
        locations.lockMany(siteId, ["L1"], "share"),
        locations.update(locationOf(siteId, "L1", { status: "Blocked" }))
      )
      yield* waitsForCommit(
        locations.lockPutawayCandidates(siteId, null),
        locations.lockMany(siteId, ["L2"], "update")
      )
      yield* waitsForCommit(
        locations.lockMany(siteId, ["L1"], "share"),
        locations.lockManyBare(siteId, ["L1", "L2"], "update")
      )
      // The waiter reads what the holder wrote under its lock: a location's occupancy follows its lock.
      const [seen] = yield* waitsForCommit(
        Effect.zipRight(
          locations.find(siteId, "L2", "update"),
          insertContent(t.client1.owner, { sku_id: "A", qty: 4, loc_id: "L2", tag_id: "T4" })
        ),
        locations.lockMany(siteId, ["L2"], "update")
      )
      assert.strictEqual(seen.occupancy.qty_on_hand, 4)
      assert.deepStrictEqual(seen.occupancy.tag_ids, ["T4"])
      const [after] = yield* waitsForCommit(
        Effect.zipRight(
          locations.find(siteId, "L2", "update"),
          insertContent(t.client1.owner, { sku_id: "A", qty: 2, loc_id: "L2", tag_id: "T5" })
        ),
        Effect.zipRight(locations.lockManyBare(siteId, ["L2"], "update"), locations.occupancyOf(siteId, ["L2"]))
      )
      assert.deepStrictEqual(after.tag_ids, ["T4", "T5"])
      assert.strictEqual(Option.getOrThrow(yield* locations.find(siteId, "L1", "none")).status, "Blocked")
    }))
})
