/**
 * The contract of `CountRepository` on both stores: counts with one that is not over per location
 * (also between two transactions at once), their snapshots with in-flight deltas, their recorded
 * lines (the last write wins), the plan's order; and a location's counting status and
 * `last_counted`.
 */
import { assert } from "@effect/vitest"
import { CountRepository, LocationRepository, type NewCount, type SiteId, type StoredCount } from "@wms/core"
import { Effect, Option } from "effect"
import { insertContent, insertLocations, makeTenants, onEachStore, waitsForCommit } from "./Contract.js"

const countOf = (siteId: SiteId, locId: string, fields: Partial<NewCount> = {}): NewCount => ({
  site_id: siteId,
  loc_id: locId,
  sku_id: null,
  blind: false,
  assignee: null,
  reason: null,
  status_id: 1,
  count_index: 1,
  created_by: "u1",
  created_at: "2030-01-01T08:00:00.000Z",
  ...fields
})

const inserted = (count: NewCount) =>
  Effect.flatMap(CountRepository, (counts) => Effect.map(counts.insert(count), Option.getOrThrow))

const stored = (id: number, count: NewCount, fields: Partial<StoredCount> = {}): StoredCount => ({
  id,
  ...count,
  location_status: null,
  reason_code: null,
  released_at: null,
  completed_at: null,
  approved_by: null,
  ...fields
})

onEachStore("CountRepository", (it) => {
  it.effect("stores counts with their values' own types, one that is not over per location", () =>
    Effect.gen(function*() {
      const counts = yield* CountRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const written = countOf(siteId, "L-1", { sku_id: "A", blind: true, assignee: "Ann", reason: "" })
      const id = yield* inserted(written)
      assert.deepStrictEqual(yield* counts.find(siteId, id, true), Option.some(stored(id, written)))
      assert.isTrue(Option.isNone(yield* counts.find(t.other.owner.site_id, id, false)))
      // Open, Counting and Pending Approval each keep a second count of the location out.
      for (const status_id of [1, 22, 23] as const) {
        yield* counts.update(stored(id, written, { status_id }))
        assert.isTrue(Option.isNone(yield* counts.insert(countOf(siteId, "L-1"))))
      }
      assert.isTrue(Option.isSome(yield* counts.insert(countOf(t.other.owner.site_id, "L-1"))))
      const done = stored(id, written, {
        status_id: 20,
        count_index: 2,
        location_status: "Blocked In",
        reason_code: "Theft",
        released_at: "2030-01-01T09:00:00.000Z",
        completed_at: "2030-01-01T10:00:00.000Z",
        approved_by: "u2"
      })
      yield* counts.update(done)
      assert.deepStrictEqual(yield* counts.find(siteId, id, false), Option.some(done))
      const next = yield* inserted(countOf(siteId, "L-1"))
      assert.isAbove(next, id)
    }))

  it.effect("of two transactions opening a count of one location at once, one does", () =>
    Effect.gen(function*() {
      const counts = yield* CountRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      const second = yield* waitsForCommit(counts.insert(countOf(siteId, "L-1")), counts.insert(countOf(siteId, "L-1")))
      assert.isTrue(Option.isNone(second))
      assert.strictEqual((yield* counts.list(siteId, {}, {})).length, 1)
    }))

  it.effect("lists a site's counts by id, filtered by status, location and zone, in windows", () =>
    Effect.gen(function*() {
      const counts = yield* CountRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["L-1", "L-2"], { zone: "Z" })
      const [a, b, c] = [
        yield* inserted(countOf(siteId, "L-1")),
        yield* inserted(countOf(siteId, "L-2")),
        yield* inserted(countOf(siteId, "X-1"))
      ]
      yield* inserted(countOf(t.other.owner.site_id, "L-1"))
      yield* counts.update(stored(b, countOf(siteId, "L-2"), { status_id: 21 }))
      const ids = (filter: Parameters<typeof counts.list>[1], window = {}) =>
        Effect.map(counts.list(siteId, filter, window), (found) => found.map((count) => count.id))
      assert.deepStrictEqual(yield* ids({}), [a, b, c])
      assert.deepStrictEqual(yield* ids({ status_id: 1 }), [a, c])
      assert.deepStrictEqual(yield* ids({ status_id: 21 }), [b])
      assert.deepStrictEqual(yield* ids({ loc_id: "X-1" }), [c])
      assert.deepStrictEqual(yield* ids({ zone: "Z" }), [a, b])
      assert.deepStrictEqual(yield* ids({ zone: "Z", status_id: 1 }), [a])
      assert.deepStrictEqual(yield* ids({}, { limit: 1, offset: 1 }), [b])
    }))

  it.effect("keeps snapshots per count index, adds in-flight deltas to a count that is counting, and lines by SKU and tag", () =>
    Effect.gen(function*() {
      const counts = yield* CountRepository
      const t = yield* makeTenants
      const owner = t.client1.owner
      const siteId = owner.site_id
      const first = yield* insertContent(owner, { sku_id: "A", qty: 5, loc_id: "L-1", tag_id: "T1" })
      const second = yield* insertContent(owner, { sku_id: "B", qty: 7, loc_id: "L-1", tag_id: "T2" })
      const count = countOf(siteId, "L-1", { sku_id: "A" })
      const id = yield* inserted(count)
      const snapshot = { content_id: first, client_id: owner.client_id, sku_id: "A", tag_id: "T1", expected: 5 }
      yield* counts.putSnapshot(id, 1, [{ ...snapshot, expiry_date: "2031-02-03", in_flight: 0 }])
      yield* counts.putSnapshot(id, 1, [])
      const content = (contentId: number, skuId: string) => ({
        ...owner,
        content_id: contentId,
        sku_id: skuId,
        loc_id: "L-1",
        tag_id: "T9",
        expiry_date: null
      })
      // Open: nothing is in flight yet.
      yield* counts.addInFlight(content(first, "A"), -1)
      yield* counts.update(stored(id, count, { status_id: 22 }))
      yield* counts.addInFlight(content(first, "A"), -2)
      yield* counts.addInFlight(content(first, "A"), -1)
      // Another SKU than the count's, and another location, are not its business.
      yield* counts.addInFlight(content(second, "B"), -3)
      yield* counts.addInFlight({ ...content(first, "A"), loc_id: "L-2" }, -3)
      // A content that arrived after the snapshot gets a row of its own.
      const arrived = yield* insertContent(owner, { sku_id: "A", qty: 0, loc_id: "L-1", tag_id: "T9" })
      yield* counts.addInFlight(content(arrived, "A"), 4)
      assert.deepStrictEqual(yield* counts.snapshot(id, 1), [
        { ...snapshot, expiry_date: "2031-02-03", in_flight: -3 },
        {
          content_id: arrived,
          client_id: owner.client_id,
          sku_id: "A",
          tag_id: "T9",
          expiry_date: null,
          expected: 0,
          in_flight: 4
        }
      ])
      yield* counts.update(stored(id, count, { status_id: 22, count_index: 2 }))
      assert.deepStrictEqual(yield* counts.snapshot(id, 2), [])
      yield* counts.addInFlight(content(first, "A"), -1)
      assert.deepStrictEqual((yield* counts.snapshot(id, 2)).map((s) => [s.content_id, s.expected, s.in_flight]), [
        [first, 0, -1]
      ])

      const line = { sku_id: "A", client_id: owner.client_id, expiry_date: null }
      yield* counts.putLines(id, 1, [{ ...line, tag_id: "T1", qty_counted: 3 }, {
        ...line,
        tag_id: null,
        qty_counted: 1
      }])
      yield* counts.putLines(id, 1, [{ ...line, tag_id: "T1", qty_counted: 4, expiry_date: "2031-01-01" }])
      yield* counts.putLines(id, 2, [{ ...line, tag_id: "T1", qty_counted: 9 }])
      assert.deepStrictEqual(yield* counts.lines(id, 1), [
        { ...line, tag_id: null, qty_counted: 1 },
        { ...line, tag_id: "T1", qty_counted: 4, expiry_date: "2031-01-01" }
      ])
      assert.deepStrictEqual(yield* counts.lines(id, 2), [{ ...line, tag_id: "T1", qty_counted: 9 }])
    }))

  it.effect("plans the locations never counted first, then the oldest, leaving out those being counted", () =>
    Effect.gen(function*() {
      const counts = yield* CountRepository
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["L-3", "L-1", "L-2", "L-4"], { zone: "Z" })
      yield* insertLocations(siteId, ["D-1"], { zone: "Z", loc_type: "Dock" })
      yield* insertLocations(siteId, ["Y-1"], { zone: "Y" })
      yield* locations.setStatus(siteId, "L-1", "Active", "2030-01-02T00:00:00.000Z")
      yield* locations.setStatus(siteId, "L-2", "Active", "2030-01-01T00:00:00.000Z")
      yield* inserted(countOf(siteId, "L-4"))
      const plan = (filter: Partial<Parameters<typeof counts.planCandidates>[1]>, max = 10) =>
        counts.planCandidates(siteId, { zone: null, loc_type: null, ...filter }, max)
      assert.deepStrictEqual(yield* plan({ zone: "Z", loc_type: "Storage" }), ["L-3", "L-2", "L-1"])
      assert.deepStrictEqual(yield* plan({ zone: "Z" }), ["D-1", "L-3", "L-2", "L-1"])
      assert.deepStrictEqual(yield* plan({}, 2), ["D-1", "L-3"])
      assert.deepStrictEqual(yield* plan({ loc_type: "Dock", zone: "Y" }), [])
      assert.deepStrictEqual(yield* counts.planCandidates(t.other.owner.site_id, { zone: null, loc_type: null }, 5), [])
    }))

  it.effect("sets a location's status, and its last_counted when given", () =>
    Effect.gen(function*() {
      const locations = yield* LocationRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["L-1"])
      const read = Effect.map(locations.find(siteId, "L-1", "none"), Option.getOrThrow)
      assert.deepStrictEqual([(yield* read).status, (yield* read).last_counted], ["Active", null])
      yield* locations.setStatus(siteId, "L-1", "Counting")
      assert.deepStrictEqual([(yield* read).status, (yield* read).last_counted], ["Counting", null])
      yield* locations.setStatus(siteId, "L-1", "Blocked In", "2030-05-06T07:08:09.000Z")
      assert.deepStrictEqual([(yield* read).status, (yield* read).last_counted], [
        "Blocked In",
        "2030-05-06T07:08:09.000Z"
      ])
    }))
})
