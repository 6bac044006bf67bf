import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { CountRepository, InventoryRepository, type Scope, type SiteId, Transactor } from "@wms/core"
import { Deferred, Effect, Fiber, Option } from "effect"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"
import {
  type Caller,
  callerFor,
  expect204,
  expectError,
  expectStatus,
  makeTenants,
  unique
} from "../../../testing/world.js"
import { session, startedWave } from "./PickingWorld.js"

interface Content {
  readonly content_id: number
  readonly sku_id: string
  readonly loc_id: string
  readonly tag_id: string
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
}

interface Transaction {
  readonly transaction_type: string
  readonly content_id: number
  readonly sku_id: string
  readonly qty: number
  readonly notes: string | null
  readonly reason_code: string | null
}

const contentsAt = (caller: Caller, locId: string) =>
  Effect.map(
    caller.get("/inventory/overview"),
    (r) => (r.body as Array<Content>).filter((c) => c.loc_id === locId).map((c) => [c.tag_id, c.qty, c.qty_allocated])
  )

/** The transactions of a SKU other than receipts and adjustments, as `[type, qty, reason_code, notes]`. */
const ledgerOf = (caller: Caller, skuId: string) =>
  Effect.map(caller.get("/inventory/transactions"), (r) =>
    (r.body as Array<Transaction>)
      .filter((t) => t.sku_id === skuId && t.transaction_type !== "Adjustment")
      .map((t) => [t.transaction_type, t.qty, t.reason_code, t.notes]))

const locationStatus = (caller: Caller, locId: string) =>
  Effect.map(caller.get(`/locations/${locId}`), (r) => r.body.status as string)

/** A site with SKU `BOLT`, the Storage location `L-1` and 10 of BOLT there on tag `P1`. */
const withStock = Effect.gen(function*() {
  const t = yield* makeTenants
  expect204(yield* t.P.post("/skus", { sku_id: "BOLT", description: "Bolt" }))
  expectStatus(yield* t.P.post("/locations", { loc_id: "L-1", loc_type: "Storage", zone: "Z" }), 201)
  expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "L-1", tag_id: "P1", qty: 10 }))
  return t
})

/** A user of the site `site` without admin rights, as a caller. */
const plainUser = (admin: Caller, site: string) =>
  Effect.gen(function*() {
    const api = yield* Api
    const email = `${unique("counter")}@example.com`
    const password = "counter-password-1"
    expect204(yield* admin.post("/users", { email, name: "Counter", password, site, admin: false }))
    return yield* callerFor(yield* api.login(email, password), site)
  })

const eventsOf = (type: string, countId: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ data: string; client_id: string | null }>`SELECT data, client_id FROM events
      WHERE event_type = ${type} ORDER BY id`
    return rows.map((row) => ({ ...JSON.parse(row.data), client_id: row.client_id })).filter((e) => e.id === countId)
  }).pipe(Effect.orDie)

/**
 * A new SKU with `counted` units on tag `T` at a new managed location and `elsewhere` on tag `U` at
 * an unmanaged one (none when 0), and a started wave of one order of `ordered` of it.
 */
const allocatedStock = (counted: number, elsewhere: number, ordered: number) =>
  Effect.gen(function*() {
    const request = yield* session
    const main = yield* callerFor(yield* (yield* Api).login(), "main")
    const [sku, loc, other, orderId] = [unique("CNT"), unique("CL"), unique("CO"), unique("O")]
    expect204(yield* main.post("/skus", { sku_id: sku, description: "Counted" }))
    expectStatus(yield* main.post("/locations", { loc_id: loc, loc_type: "Storage" }), 201)
    expect204(yield* main.post("/inventory/adjustments", { sku_id: sku, loc_id: loc, tag_id: "T", qty: counted }))
    if (elsewhere > 0) {
      expect204(yield* main.post("/inventory/adjustments", { sku_id: sku, loc_id: other, tag_id: "U", qty: elsewhere }))
    }
    const waveId = yield* startedWave(request, [{ order_id: orderId, lines: [{ sku_id: sku, qty: ordered }] }])
    return { main, sku, loc, other, orderId, waveId }
  })

/** Opens, releases and records a count of `loc` that finds `qty` of `sku` on tag `T`. */
const countFinding = (main: Caller, sku: string, loc: string, qty: number) =>
  Effect.gen(function*() {
    const count = (yield* main.post("/counts", { loc_id: loc })).body.id
    expect204(yield* main.post(`/counts/${count}/release`, null))
    expect204(yield* main.post(`/counts/${count}/record`, { lines: [{ sku_id: sku, tag_id: "T", qty_counted: qty }] }))
  })

const dateTime = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`cycle counts on ${label}`, (it) => {
    it.effect("a count is created, released, recorded and applied at once when no threshold is set", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const t = yield* withStock
        const created = yield* t.P.post("/counts", { loc_id: "L-1", assignee: "Ann", reason: "Quarterly" })
        expectStatus(created, 201)
        const count = created.body
        assert.deepStrictEqual({ ...count, creation_date: "" }, {
          id: count.id,
          loc_id: "L-1",
          sku_id: null,
          blind: false,
          assignee: "Ann",
          reason: "Quarterly",
          status: "Open",
          status_id: 1,
          count_index: 1,
          reason_code: null,
          created_by: yield* api.adminUserId,
          creation_date: "",
          release_date: null,
          completion_date: null,
          approved_by: null,
          lines: []
        })
        assert.match(count.creation_date, dateTime)
        assert.strictEqual(created.headers["location"], `/counts/${count.id}`)
        assert.deepStrictEqual((yield* t.P.get(`/counts/${count.id}`)).body, count)
        expectError(yield* t.P.post("/counts", { loc_id: "L-1" }), 409, "Location L-1 is already being counted")

        expect204(yield* t.P.post(`/counts/${count.id}/release`, null))
        assert.strictEqual(yield* locationStatus(t.P, "L-1"), "Counting")
        const released = (yield* t.P.get(`/counts/${count.id}`)).body
        assert.deepStrictEqual([released.status, released.status_id], ["Counting", 22])
        assert.match(released.release_date, dateTime)
        assert.deepStrictEqual(released.lines, [{
          sku_id: "BOLT",
          tag_id: "P1",
          client_id: null,
          expected: 10,
          in_flight: 0,
          qty_counted: null,
          variance: null,
          within_threshold: null
        }])
        // The freeze: no move from the location, no adjustment at it, no second release.
        expectError(
          yield* t.P.post("/movement-tasks", { sku_id: "BOLT", from_loc_id: "L-1", qty: 1, to_loc_id: "X" }),
          409,
          "Location L-1 is Counting"
        )
        expectError(
          yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "L-1", tag_id: "P1", qty: -1 }),
          409,
          "Location L-1 is Counting"
        )
        expectError(yield* t.P.post(`/counts/${count.id}/release`, null), 409, `Count ${count.id} is Counting`)

        expect204(
          yield* t.P.post(`/counts/${count.id}/record`, {
            lines: [{ sku_id: "BOLT", tag_id: "P1", qty_counted: 8 }, { sku_id: "BOLT", tag_id: "F9", qty_counted: 3 }]
          })
        )
        const done = (yield* t.P.get(`/counts/${count.id}`)).body
        assert.deepStrictEqual([done.status, done.status_id, done.reason_code], ["Complete", 20, "Miscount"])
        assert.deepStrictEqual(done.lines.map((l: any) => [l.tag_id, l.expected, l.qty_counted, l.variance]), [
          ["F9", 0, 3, 3],
          ["P1", 10, 8, -2]
        ])
        assert.deepStrictEqual(yield* contentsAt(t.P, "L-1"), [["P1", 8, 0], ["F9", 3, 0]])
        assert.deepStrictEqual(yield* ledgerOf(t.P, "BOLT"), [
          ["Count", 3, "Miscount", `Count ${count.id}`],
          ["Count", -2, "Miscount", `Count ${count.id}`]
        ])
        const location = (yield* t.P.get("/locations/L-1")).body
        assert.strictEqual(location.status, "Active")
        assert.match(location.last_counted, dateTime)
        assert.deepStrictEqual(
          (yield* t.P.get("/counts?status=20")).body.map((c: any) => [c.id, c.lines]),
          [[count.id, undefined]]
        )
        assert.deepStrictEqual((yield* t.P.get("/counts?status=1")).body, [])
        const completed = yield* eventsOf("count_completed", count.id)
        assert.deepStrictEqual(completed.map((e) => [e.status, e.client_id]), [["Complete", null]])
        const closed = `Count ${count.id} is Complete`
        expectError(
          yield* t.P.post(`/counts/${count.id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 1 }] }),
          409,
          closed
        )
        expectError(yield* t.P.del(`/counts/${count.id}`), 409, closed)
        expectError(yield* t.P.post(`/counts/${count.id}/approve`, { reason_code: "Other" }), 409, closed)
        expectError(yield* t.P.post(`/counts/${count.id}/recount`, null), 409, closed)
        // A new count of the location may open now.
        expectStatus(yield* t.P.post("/counts", { loc_id: "L-1" }), 201)
      }))

    it.effect("a line over the threshold waits for an admin's approval with a reason; a recount counts again", () =>
      Effect.gen(function*() {
        const t = yield* withStock
        expect204(yield* t.P.put(`/sites/${t.p}/settings`, { count_variance_threshold: { units: 1 } }))
        assert.deepStrictEqual((yield* t.P.get(`/sites/${t.p}/settings`)).body, {
          putaway_on_receipt: false,
          reallocate_short_picks: false,
          backorders: false,
          count_on_short_pick: false,
          count_variance_threshold: { percent: null, units: 1 },
          gs1_company_prefix: null,
          sscc_extension_digit: 0,
          pack_before_ship: false
        })
        const counter = yield* plainUser(t.P, t.p)
        const created = yield* counter.post("/counts", { loc_id: "L-1", blind: true })
        expectStatus(created, 201)
        const id = created.body.id
        expect204(yield* counter.post(`/counts/${id}/release`, null))
        // Blind: the counter's sheet has no expected figure; the admin's has.
        const sheet = (yield* counter.get(`/counts/${id}`)).body
        assert.deepStrictEqual(sheet.lines, [{ sku_id: "BOLT", tag_id: "P1", client_id: null, qty_counted: null }])
        assert.strictEqual((yield* t.P.get(`/counts/${id}`)).body.lines[0].expected, 10)

        expect204(yield* counter.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 4 }] }))
        const pending = (yield* counter.get(`/counts/${id}`)).body
        assert.deepStrictEqual([pending.status, pending.status_id], ["Pending Approval", 23])
        assert.deepStrictEqual(pending.lines, [{ sku_id: "BOLT", tag_id: "P1", client_id: null, qty_counted: 4 }])
        assert.deepStrictEqual(yield* ledgerOf(t.P, "BOLT"), [])
        assert.deepStrictEqual((yield* eventsOf("count_pending_approval", id)).map((e) => e.lines[0].variance), [-6])
        // The last write wins before apply: a second handheld's line replaces the first.
        expect204(
          yield* counter.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", tag_id: "P1", qty_counted: 5 }] })
        )
        assert.deepStrictEqual(
          (yield* t.P.get(`/counts/${id}`)).body.lines.map((l: any) => [l.qty_counted, l.variance]),
          [
            [5, -5]
          ]
        )

        expectError(
          yield* counter.post(`/counts/${id}/approve`, { reason_code: "Theft" }),
          403,
          "Admin rights required"
        )
        expectError(
          yield* t.P.post(`/counts/${id}/approve`, { reason_code: "Lost" }),
          400,
          "Invalid field reason_code: must be one of Damaged, Mispick, Miscount, Found, Theft, Expired, Other"
        )
        expect204(yield* counter.post(`/counts/${id}/recount`, null))
        const recounted = (yield* t.P.get(`/counts/${id}`)).body
        assert.deepStrictEqual([recounted.status, recounted.count_index, recounted.lines[0].qty_counted], [
          "Counting",
          2,
          null
        ])
        expectError(yield* t.P.post(`/counts/${id}/approve`, { reason_code: "Theft" }), 409, `Count ${id} is Counting`)
        expect204(yield* counter.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 7 }] }))
        expect204(yield* t.P.post(`/counts/${id}/approve`, { reason_code: "Theft" }))
        const done = (yield* counter.get(`/counts/${id}`)).body
        assert.deepStrictEqual([done.status, done.reason_code, done.lines[0].variance], ["Complete", "Theft", -3])
        assert.deepStrictEqual(yield* ledgerOf(t.P, "BOLT"), [["Count", -3, "Theft", `Count ${id}`]])
        assert.deepStrictEqual(yield* contentsAt(t.P, "L-1"), [["P1", 7, 0]])

        // Within the threshold: applied at once.
        const next = (yield* t.P.post("/counts", { loc_id: "L-1", sku_id: "BOLT" })).body.id
        expect204(yield* t.P.post(`/counts/${next}/release`, null))
        expect204(yield* t.P.post(`/counts/${next}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 6 }] }))
        assert.strictEqual((yield* t.P.get(`/counts/${next}`)).body.status, "Complete")
      }))

    it.effect("a pick confirmed while counting is in flight, and a wave start leaves the counted stock alone", () =>
      Effect.gen(function*() {
        const request = yield* session
        const main = yield* callerFor(yield* (yield* Api).login(), "main")
        const [sku, loc] = [unique("CNT"), unique("CL")]
        expect204(yield* main.post("/skus", { sku_id: sku, description: "Counted" }))
        expectStatus(yield* main.post("/locations", { loc_id: loc, loc_type: "Storage" }), 201)
        expect204(yield* main.post("/inventory/adjustments", { sku_id: sku, loc_id: loc, tag_id: "T", qty: 10 }))
        const waveId = yield* startedWave(request, [{ order_id: unique("O"), lines: [{ sku_id: sku, qty: 4 }] }])
        const [task] = (yield* main.get(`/tasks?wave_id=${waveId}`)).body
        const count = (yield* main.post("/counts", { loc_id: loc })).body.id
        expect204(yield* main.post(`/counts/${count}/release`, null))

        // No allocation from a location being counted.
        const second = unique("O")
        yield* startedWave(request, [{ order_id: second, lines: [{ sku_id: sku, qty: 2 }] }])
        assert.strictEqual((yield* main.get(`/orders/${second}`)).body.order_status.id, 14)
        assert.deepStrictEqual(yield* contentsAt(main, loc), [["T", 10, 4]])

        // The pick tasked before the release may finish: the count sees it in flight.
        expect204(yield* main.post(`/tasks/${task.id}/confirm`, {}))
        assert.deepStrictEqual(
          (yield* main.get(`/counts/${count}`)).body.lines.map((l: any) => [l.expected, l.in_flight]),
          [[10, -4]]
        )
        expect204(yield* main.post(`/counts/${count}/record`, { lines: [{ sku_id: sku, qty_counted: 6 }] }))
        const done = (yield* main.get(`/counts/${count}`)).body
        assert.deepStrictEqual([done.status, done.lines[0].variance], ["Complete", 0])
        assert.deepStrictEqual(yield* contentsAt(main, loc), [["T", 6, 0]])
        assert.isFalse((yield* ledgerOf(main, sku)).some(([type]) => type === "Count"))
      }))

    it.effect("a pick confirmed while the count is released is in the snapshot or in flight, never both", () =>
      Effect.gen(function*() {
        const request = yield* session
        const main = yield* callerFor(yield* (yield* Api).login(), "main")
        for (let round = 0; round < 3; round++) {
          const [sku, loc] = [unique("CNT"), unique("CL")]
          expect204(yield* main.post("/skus", { sku_id: sku, description: "Raced" }))
          expectStatus(yield* main.post("/locations", { loc_id: loc, loc_type: "Storage" }), 201)
          expect204(yield* main.post("/inventory/adjustments", { sku_id: sku, loc_id: loc, tag_id: "T", qty: 10 }))
          const waveId = yield* startedWave(request, [{ order_id: unique("O"), lines: [{ sku_id: sku, qty: 4 }] }])
          const [task] = (yield* main.get(`/tasks?wave_id=${waveId}`)).body
          const count = (yield* main.post("/counts", { loc_id: loc })).body.id
          const [picked, released] = yield* Effect.all([
            main.post(`/tasks/${task.id}/confirm`, {}),
            main.post(`/counts/${count}/release`, null)
          ], { concurrency: 2 })
          expect204(picked)
          expect204(released)
          const [line] = (yield* main.get(`/counts/${count}`)).body.lines
          assert.strictEqual(line.expected + line.in_flight, 6, JSON.stringify(line))
          expect204(yield* main.post(`/counts/${count}/record`, { lines: [{ sku_id: sku, qty_counted: 6 }] }))
          assert.deepStrictEqual(yield* contentsAt(main, loc), [["T", 6, 0]])
          assert.isFalse((yield* ledgerOf(main, sku)).some(([type]) => type === "Count"))
        }
      }))

    it.effect("a count recorded while a confirmation takes from a counted content applies what that leaves", () =>
      Effect.gen(function*() {
        const main = yield* callerFor(yield* (yield* Api).login(), "main")
        const inventory = yield* InventoryRepository
        const counts = yield* CountRepository
        const { atomically } = yield* Transactor
        const [sku, loc] = [unique("CNT"), unique("CL")]
        expect204(yield* main.post("/skus", { sku_id: sku, description: "Raced" }))
        expectStatus(yield* main.post("/locations", { loc_id: loc, loc_type: "Storage" }), 201)
        expect204(yield* main.post("/inventory/adjustments", { sku_id: sku, loc_id: loc, tag_id: "T", qty: 10 }))
        const count = (yield* main.post("/counts", { loc_id: loc })).body.id
        expect204(yield* main.post(`/counts/${count}/release`, null))
        const [{ content_id }] = (yield* main.get("/inventory/overview")).body.filter((c: Content) => c.loc_id === loc)

        // What a confirmation of 2 tasked before the release does, held open before it commits.
        const scope: Scope = { site_id: "main" as SiteId, fulfillment: false, client_id: null }
        const held = yield* Deferred.make<void>()
        const commit = yield* Deferred.make<void>()
        const confirmation = yield* Effect.fork(atomically(Effect.gen(function*() {
          const content = Option.getOrThrow(yield* inventory.lockContent(scope, content_id))
          yield* inventory.setQuantities(content_id, { ...content, qty: content.qty - 2 })
          yield* counts.addInFlight(content, -2)
          yield* Deferred.succeed(held, undefined)
          yield* Deferred.await(commit)
        })))
        yield* Deferred.await(held)
        // The counter found the 10 the snapshot expects: the count waits for the confirmation.
        const recording = yield* Effect.fork(
          main.post(`/counts/${count}/record`, { lines: [{ sku_id: sku, qty_counted: 10 }] })
        )
        yield* Effect.sleep("200 millis")
        assert.isTrue(Option.isNone(yield* Fiber.poll(recording)), "the count applied while the confirmation held on")
        yield* Deferred.succeed(commit, undefined)
        yield* Fiber.join(confirmation)
        expect204(yield* Fiber.join(recording))

        const [line] = (yield* main.get(`/counts/${count}`)).body.lines
        assert.deepStrictEqual([line.expected, line.in_flight, line.variance], [10, -2, 2])
        assert.deepStrictEqual((yield* ledgerOf(main, sku)).filter(([type]) => type === "Count"), [
          ["Count", 2, "Miscount", `Count ${count}`]
        ])
        assert.deepStrictEqual(yield* contentsAt(main, loc), [["T", 10, 0]])
      }))

    it.effect("a shortfall on allocated stock gives back the claims it leaves uncovered", () =>
      Effect.gen(function*() {
        const { loc, main, orderId, sku, waveId } = yield* allocatedStock(10, 0, 8)
        yield* countFinding(main, sku, loc, 5)
        assert.deepStrictEqual(yield* contentsAt(main, loc), [["T", 5, 0]])
        assert.deepStrictEqual((yield* main.get(`/tasks?wave_id=${waveId}`)).body, [])
        assert.deepStrictEqual((yield* ledgerOf(main, sku)).map(([type, qty, reason]) => [type, qty, reason]), [
          ["Allocate", 8, null],
          ["Deallocate", 8, null],
          ["Count", -5, "Miscount"]
        ])
        assert.strictEqual((yield* main.get(`/orders/${orderId}`)).body.order_status.id, 14)
      }))

    it.effect("with reallocate_short_picks on, the claims a count gives back are claimed again from other stock", () =>
      Effect.gen(function*() {
        const { loc, main, orderId, other, sku, waveId } = yield* allocatedStock(10, 10, 8)
        expect204(yield* main.put("/sites/main/settings", { reallocate_short_picks: true }))
        yield* countFinding(main, sku, loc, 5)
        expect204(yield* main.put("/sites/main/settings", { reallocate_short_picks: false }))
        const tasks = (yield* main.get(`/tasks?wave_id=${waveId}`)).body as ReadonlyArray<
          { from_loc_id: string; quantity: number }
        >
        assert.deepStrictEqual(tasks.map((t) => [t.from_loc_id, t.quantity]), [[other, 8]])
        assert.deepStrictEqual((yield* ledgerOf(main, sku)).map(([type, qty]) => [type, qty]), [
          ["Allocate", 8],
          ["Deallocate", 8],
          ["Count", -5],
          ["Allocate", 8]
        ])
        // Allocated in full again: the order keeps its status.
        assert.strictEqual((yield* main.get(`/orders/${orderId}`)).body.order_status.id, 15)
      }))

    it.effect("with backorders on, what a count gives back and no stock covers is backordered on its line", () =>
      Effect.gen(function*() {
        const { loc, main, orderId, other, sku, waveId } = yield* allocatedStock(6, 3, 9)
        const [atOther] = ((yield* main.get(`/tasks?wave_id=${waveId}`)).body as ReadonlyArray<
          { id: number; from_loc_id: string }
        >).filter((t) => t.from_loc_id === other)
        // A pick of the other content keeps the order from being Released whole.
        expect204(yield* main.post(`/tasks/${atOther.id}/confirm`, null))
        expect204(yield* main.put("/sites/main/settings", { reallocate_short_picks: true, backorders: true }))
        yield* countFinding(main, sku, loc, 2)
        expect204(yield* main.put("/sites/main/settings", { reallocate_short_picks: false, backorders: false }))
        // The 6 claimed at the counted location are given back; no other stock is left for them.
        assert.deepStrictEqual((yield* main.get(`/tasks?wave_id=${waveId}`)).body, [])
        const line = (yield* main.get(`/orders/${orderId}`)).body.lines[0]
        assert.deepStrictEqual([line.qty_picked, line.qty_backordered], [3, 6])
      }))

    it.effect("cancel gives the location its status back and writes nothing; plan picks the oldest counted", () =>
      Effect.gen(function*() {
        const t = yield* withStock
        for (const locId of ["L-2", "L-3"]) {
          expectStatus(yield* t.P.post("/locations", { loc_id: locId, loc_type: "Storage", zone: "Z" }), 201)
        }
        expectStatus(yield* t.P.post("/locations", { loc_id: "D-1", loc_type: "Dock", zone: "Z" }), 201)
        expect204(yield* t.P.put("/locations/L-1", { loc_type: "Storage", zone: "Z", status: "Blocked In" }))
        const id = (yield* t.P.post("/counts", { loc_id: "L-1" })).body.id
        expect204(yield* t.P.post(`/counts/${id}/release`, null))
        expectError(
          yield* t.P.put("/locations/L-1", { loc_type: "Storage", status: "Active" }),
          409,
          "Location L-1 is being counted"
        )
        expect204(yield* t.P.del(`/counts/${id}`))
        assert.strictEqual((yield* t.P.get(`/counts/${id}`)).body.status, "Cancelled")
        assert.strictEqual(yield* locationStatus(t.P, "L-1"), "Blocked In")
        assert.deepStrictEqual(yield* ledgerOf(t.P, "BOLT"), [])
        expectError(yield* t.P.del(`/counts/${id}`), 409, `Count ${id} is Cancelled`)

        // L-1 counted last: the never-counted Storage locations come first.
        const counted = (yield* t.P.post("/counts", { loc_id: "L-1" })).body.id
        expect204(yield* t.P.post(`/counts/${counted}/release`, null))
        expect204(yield* t.P.post(`/counts/${counted}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 10 }] }))
        const planned = yield* t.P.post("/counts/plan", { zone: "Z", loc_type: "Storage" })
        expectStatus(planned, 201)
        assert.deepStrictEqual(planned.body.map((c: any) => [c.loc_id, c.status]), [["L-2", "Open"], ["L-3", "Open"], [
          "L-1",
          "Open"
        ]])
        // Locations with an open count are left out.
        assert.deepStrictEqual((yield* t.P.post("/counts/plan", { zone: "Z" })).body.map((c: any) => c.loc_id), ["D-1"])
        assert.deepStrictEqual((yield* t.P.post("/counts/plan", null)).body, [])
        assert.deepStrictEqual(
          (yield* t.P.get("/counts?status=1&zone=Z")).body.map((c: any) => c.loc_id),
          ["L-2", "L-3", "L-1", "D-1"]
        )
        assert.deepStrictEqual((yield* t.P.get("/counts?loc_id=L-2")).body.length, 1)
        assert.deepStrictEqual((yield* t.P.get("/counts?zone=Y")).body, [])
      }))

    it.effect("every documented 4xx of the counts, with nothing written", () =>
      Effect.gen(function*() {
        const t = yield* withStock
        expectError(yield* t.P.get("/counts/999999"), 404, "Count with id 999999 not found")
        expectError(yield* t.P.post("/counts/999999/release", null), 404, "Count with id 999999 not found")
        expectError(yield* t.P.del("/counts/999999"), 404, "Count with id 999999 not found")
        for (const step of ["recount", "approve", "record"]) {
          const body = step === "approve"
            ? { reason_code: "Other" }
            : step === "record"
            ? { lines: [{ sku_id: "BOLT", qty_counted: 1 }] }
            : null
          expectError(yield* t.P.post(`/counts/999999/${step}`, body), 404, "Count with id 999999 not found")
        }
        expectError(
          yield* t.P.post("/counts/plan", { max: 0 }),
          400,
          "Invalid field max: must be an integer from 1 to 1000"
        )
        // A location gone between the count's creation and its release.
        expectStatus(yield* t.P.post("/locations", { loc_id: "L-9", loc_type: "Storage" }), 201)
        const orphan = (yield* t.P.post("/counts", { loc_id: "L-9" })).body.id
        expect204(yield* t.P.del("/locations/L-9"))
        expectError(yield* t.P.post(`/counts/${orphan}/release`, null), 404, "Location with id L-9 not found")
        expect204(yield* t.P.del(`/counts/${orphan}`))
        expectError(yield* t.P.post("/counts", { loc_id: "NOWHERE" }), 404, "Location with id NOWHERE not found")
        expectError(yield* t.P.post("/counts", {}), 400, "Missing field loc_id")
        expectError(
          yield* t.P.post("/counts", { loc_id: "L-1", sku_id: "NUT" }),
          400,
          "Invalid field sku_id: SKU NUT does not exist"
        )
        expectError(
          yield* t.P.get("/counts?status=7"),
          400,
          "Invalid field status: must be 1 (Open), 20 (Complete), 21 (Cancelled), 22 (Counting) or 23 (Pending Approval)"
        )
        expectError(yield* t.F1.get("/counts"), 403, "Counts are for users of the whole site")
        expectError(yield* t.F1.post("/counts", { loc_id: "L-1" }), 403, "Counts are for users of the whole site")

        // Release with stock on its way to the location.
        expectStatus(yield* t.P.post("/locations", { loc_id: "L-2", loc_type: "Storage" }), 201)
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "R", tag_id: "R1", qty: 2 }))
        const source = (yield* t.P.get("/inventory/overview")).body.find((c: Content) => c.loc_id === "R")
        const task = (yield* t.P.post("/movement-tasks", { content_id: source.content_id, qty: 2, to_loc_id: "L-2" }))
          .body
        const inbound = (yield* t.P.post("/counts", { loc_id: "L-2" })).body.id
        expectError(
          yield* t.P.post(`/counts/${inbound}/release`, null),
          409,
          "Location L-2 has open inbound movement tasks"
        )
        assert.strictEqual(yield* locationStatus(t.P, "L-2"), "Active")
        expect204(yield* t.P.del(`/movement-tasks/${task.id}`))
        expect204(yield* t.P.post(`/counts/${inbound}/release`, null))

        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "L-1", tag_id: "P2", qty: 1 }))
        const id = (yield* t.P.post("/counts", { loc_id: "L-1", sku_id: "BOLT" })).body.id
        expectError(
          yield* t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 1 }] }),
          409,
          `Count ${id} is Open`
        )
        expectError(yield* t.P.post(`/counts/${id}/recount`, null), 409, `Count ${id} is Open`)
        expect204(yield* t.P.post(`/counts/${id}/release`, null))
        expectError(
          yield* t.P.post(`/counts/${id}/record`, { lines: [] }),
          400,
          "Invalid field lines: must hold from 1 to 10000 lines"
        )
        expectError(yield* t.P.post(`/counts/${id}/record`, {}), 400, "Missing field lines")
        expectError(
          yield* t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: -1 }] }),
          400,
          "Invalid field lines.0.qty_counted: must be an integer from 0 to 2147483647"
        )
        expect204(yield* t.P.post("/skus", { sku_id: "NUT", description: "Nut" }))
        expectError(
          yield* t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "NUT", qty_counted: 1 }] }),
          400,
          `Invalid field lines: count ${id} covers SKU BOLT only`
        )
        expectError(
          yield* t.P.post(`/counts/${id}/record`, {
            lines: [{ sku_id: "BOLT", tag_id: "P1", qty_counted: 1 }, { sku_id: "BOLT", tag_id: "P1", qty_counted: 2 }]
          }),
          400,
          "Invalid field lines: SKU BOLT with tag P1 is named twice"
        )
        // Two tags of BOLT at L-1: a line without a tag does not say which.
        expectError(
          yield* t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 1 }] }),
          400,
          "Invalid field lines: SKU BOLT lies at L-1 under several tags: name the tag of each"
        )
        // A movement task carries 1 of P2 away: a count below that cannot apply.
        const p2 = (yield* t.P.get("/inventory/overview")).body.find((c: Content) => c.tag_id === "P2")
        const carried = yield* t.P.post("/movement-tasks", { content_id: p2.content_id, qty: 1, to_loc_id: "X" })
        expectError(carried, 409, "Location L-1 is Counting")
        const other = yield* t.P.post("/counts", { loc_id: "L-2" })
        expectError(other, 409, "Location L-2 is already being counted")
        expectError(
          yield* t.P.post(`/counts/${inbound}/record`, { lines: [{ sku_id: "GHOST", qty_counted: 1 }] }),
          400,
          "Invalid field lines: SKU GHOST does not exist"
        )
        expectError(yield* t.P.post(`/counts/${id}/approve`, { reason_code: "Other" }), 409, `Count ${id} is Counting`)
        expectError(yield* t.P.post(`/counts/${id}/approve`, {}), 400, "Missing field reason_code")
        assert.deepStrictEqual(yield* ledgerOf(t.P, "BOLT"), [
          ["Task", 2, null, `Movement task ${task.id}`],
          ["Untask", 2, null, `Movement task ${task.id}`]
        ])
        assert.deepStrictEqual(yield* contentsAt(t.P, "L-1"), [["P1", 10, 0], ["P2", 1, 0]])
      }))

    it.effect("of two counts of one location opened at once one is made; a count recorded twice at once applies once", () =>
      Effect.gen(function*() {
        const t = yield* withStock
        const opened = yield* Effect.all([
          t.P.post("/counts", { loc_id: "L-1" }),
          t.P.post("/counts", { loc_id: "L-1" })
        ], { concurrency: 2 })
        assert.sameMembers(opened.map((r) => r.status), [201, 409])
        const id = opened.find((r) => r.status === 201)!.body.id
        expect204(yield* t.P.post(`/counts/${id}/release`, null))
        const recorded = yield* Effect.all([
          t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 7 }] }),
          t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 7 }] })
        ], { concurrency: 2 })
        assert.sameMembers(recorded.map((r) => r.status), [204, 409])
        assert.deepStrictEqual(yield* ledgerOf(t.P, "BOLT"), [["Count", -3, "Miscount", `Count ${id}`]])
        assert.deepStrictEqual(yield* contentsAt(t.P, "L-1"), [["P1", 7, 0]])
      }))

    it.effect("a count cannot apply below what open movement tasks carry away, and writes nothing then", () =>
      Effect.gen(function*() {
        const t = yield* withStock
        const source = (yield* t.P.get("/inventory/overview")).body.find((c: Content) => c.loc_id === "L-1")
        const task = (yield* t.P.post("/movement-tasks", { content_id: source.content_id, qty: 4, to_loc_id: "X" }))
          .body
        const id = (yield* t.P.post("/counts", { loc_id: "L-1" })).body.id
        expect204(yield* t.P.post(`/counts/${id}/release`, null))
        expectError(
          yield* t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 3 }] }),
          409,
          `Content ${source.content_id} has 4 under movement tasks: confirm or cancel them before the count applies`
        )
        assert.deepStrictEqual((yield* t.P.get(`/counts/${id}`)).body.lines[0].qty_counted, null)
        // The move tasked before the release may finish: in flight, and the count then applies.
        expect204(yield* t.P.post(`/movement-tasks/${task.id}/confirm`, {}))
        expect204(yield* t.P.post(`/counts/${id}/record`, { lines: [{ sku_id: "BOLT", qty_counted: 5 }] }))
        const done = (yield* t.P.get(`/counts/${id}`)).body
        assert.deepStrictEqual(done.lines.map((l: any) => [l.expected, l.in_flight, l.qty_counted, l.variance]), [
          [10, -4, 5, -1]
        ])
        assert.deepStrictEqual(yield* contentsAt(t.P, "L-1"), [["P1", 5, 0]])
      }))

    it.effect("an adjustment may name a reason code from the same list", () =>
      Effect.gen(function*() {
        const t = yield* withStock
        expect204(
          yield* t.P.post("/inventory/adjustments", {
            sku_id: "BOLT",
            loc_id: "L-1",
            tag_id: "P1",
            qty: -1,
            reason_code: "Damaged"
          })
        )
        expectError(
          yield* t.P.post("/inventory/adjustments", {
            sku_id: "BOLT",
            loc_id: "L-1",
            tag_id: "P1",
            qty: -1,
            reason_code: "Broken"
          }),
          400,
          "Invalid field reason_code: must be one of Damaged, Mispick, Miscount, Found, Theft, Expired, Other"
        )
        const adjustments = (yield* t.P.get("/inventory/transactions")).body
          .filter((tr: Transaction) => tr.transaction_type === "Adjustment")
          .map((tr: Transaction) => [tr.qty, tr.reason_code])
        assert.deepStrictEqual(adjustments, [[10, null], [-1, "Damaged"]])
      }))
  })
}
