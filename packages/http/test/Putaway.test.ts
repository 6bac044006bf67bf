import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
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

interface Content {
  readonly content_id: number
  readonly sku_id: string
  readonly loc_id: string
  readonly qty: number
  readonly qty_tasked_from: number
}

interface Task {
  readonly id: number
  readonly task_type: string
  readonly content_id: number
  readonly quantity: number
  readonly from_loc_id: string
  readonly to_loc_id: string
}

const contentsOf = (caller: Caller, skuId: string) =>
  Effect.map(caller.get("/inventory/overview"), (r) => (r.body as Array<Content>).filter((c) => c.sku_id === skuId))

/** A pre-advice of one line of `qty` of the SKU, created through the API; yields its id. */
const preAdvice = (caller: Caller, skuId: string, qty: number) =>
  Effect.gen(function*() {
    const id = unique("PA")
    expect204(yield* caller.post("/preadvices", { pre_advice_id: id, lines: [{ sku_id: skuId, qty }] }))
    return id
  })

/** The tasks of a putaway report as `[content, qty, from, to]`. */
const planned = (caller: Caller, ids: ReadonlyArray<number>) =>
  Effect.forEach(ids, (id) =>
    Effect.map(caller.get(`/movement-tasks/${id}`), (r) => {
      const task = r.body as Task
      assert.strictEqual(task.task_type, "Putaway")
      return [task.content_id, task.quantity, task.from_loc_id, task.to_loc_id]
    }))

/** What the pre-advice tables and the stock hold, to prove that a refused write changed nothing. */
const snapshot = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return JSON.stringify([
    yield* sql`SELECT * FROM preadvices ORDER BY id`,
    yield* sql`SELECT * FROM preadvice_lines ORDER BY 1, 2`,
    yield* sql`SELECT * FROM contents ORDER BY content_id`,
    yield* sql`SELECT * FROM inventory_transactions ORDER BY id`,
    yield* sql`SELECT * FROM movement_tasks ORDER BY id`
  ])
}).pipe(Effect.orDie)

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`putaway on ${label}`, (it) => {
    it.effect("receive with putaway answers 200 with its tasks: full pallets first, the preferred location's zone first", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(
          yield* t.P.post("/skus", {
            sku_id: "JUICE",
            description: "Apple juice",
            each_weight: 1,
            qty_on_full_pallet: 10,
            preferred_putaway_location: "P-1"
          })
        )
        for (
          const location of [
            { loc_id: "P-1", loc_type: "Storage", zone: "A", sequence: 5, max_weight: 10 },
            { loc_id: "S-1", loc_type: "Storage", zone: "B", sequence: 1 },
            { loc_id: "S-2", loc_type: "Storage", zone: "A", sequence: 9 },
            { loc_id: "S-0", loc_type: "Storage", zone: "A", sequence: 0, status: "Blocked In" },
            { loc_id: "PF-1", loc_type: "PickFace", zone: "A", sequence: 0 }
          ]
        ) expectStatus(yield* t.P.post("/locations", location), 201)
        const id = yield* preAdvice(t.P, "JUICE", 25)

        const received = yield* t.P.post(`/preadvices/${id}/receive`, { putaway: true })
        expectStatus(received, 200)
        const [content] = yield* contentsOf(t.P, "JUICE")
        assert.deepStrictEqual(received.body.unplaced, [])
        assert.deepStrictEqual(yield* planned(t.P, received.body.tasks), [
          [content!.content_id, 10, "RECEIVING", "P-1"],
          [content!.content_id, 10, "RECEIVING", "S-2"],
          [content!.content_id, 5, "RECEIVING", "S-2"]
        ])
        assert.deepStrictEqual([content!.loc_id, content!.qty, content!.qty_tasked_from], ["RECEIVING", 25, 25])
        assert.deepStrictEqual((yield* t.P.get("/locations/S-2")).body.inbound_qty, 15)
        assert.deepStrictEqual(
          (yield* t.P.get(`/preadvices/${id}`)).body.pre_advice_status,
          { id: 3, description: "Received" }
        )

        // Confirming a putaway task moves the stock with a Putaway transaction.
        expect204(yield* t.P.post(`/movement-tasks/${received.body.tasks[0]}/confirm`, {}))
        const [, atP1] = yield* contentsOf(t.P, "JUICE")
        assert.deepStrictEqual([atP1!.loc_id, atP1!.qty], ["P-1", 10])
        const ledger = (yield* t.P.get("/inventory/transactions")).body
        assert.deepStrictEqual(
          ledger.map((entry: { transaction_type: string; qty: number }) => [entry.transaction_type, entry.qty]),
          [["Receipt", 25], ["Task", 10], ["Task", 10], ["Task", 5], ["Putaway", 10]]
        )
        assert.strictEqual(ledger.at(-1).from_content_id, content!.content_id)
      }))

    it.effect("stock no location has room for is reported unplaced, and the receipt still succeeds", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "BRICK", description: "Brick", each_weight: 2 }))
        expectStatus(yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Storage", max_weight: 8 }), 201)
        const id = yield* preAdvice(t.P, "BRICK", 5)
        const received = yield* t.P.post(`/preadvices/${id}/receive`, { putaway: true })
        const [content] = yield* contentsOf(t.P, "BRICK")
        assert.deepStrictEqual([received.status, received.body], [200, {
          tasks: [],
          unplaced: [{ content_id: content!.content_id, qty: 5 }]
        }])
        assert.deepStrictEqual([content!.qty, content!.qty_tasked_from], [5, 0])
        // Once there is room, POST /putaway-tasks places it.
        expect204(yield* t.P.put("/locations/S-1", { loc_type: "Storage", max_weight: 10 }))
        const later = yield* t.P.post("/putaway-tasks", { content_id: content!.content_id })
        expectStatus(later, 201)
        assert.deepStrictEqual(
          later.body.map((task: Task) => [task.task_type, task.content_id, task.quantity, task.to_loc_id]),
          [["Putaway", content!.content_id, 5, "S-1"]]
        )
        assert.isUndefined(later.headers["location"])
        // Nothing available is left to place.
        const again = yield* t.P.post("/putaway-tasks", { content_id: content!.content_id })
        assert.deepStrictEqual([again.status, again.body], [201, []])
      }))

    it.effect("POST /putaway-tasks: content only at a receiving location, managed or the unmanaged RECEIVING", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "NUT", description: "Nut" }))
        expectStatus(yield* t.P.post("/locations", { loc_id: "DOOR-1", loc_type: "Receiving" }), 201)
        expectStatus(yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Storage" }), 201)
        const id = yield* preAdvice(t.P, "NUT", 6)
        const received = yield* t.P.post(`/preadvices/${id}/receive`, {
          lines: [{ line: 1, qty: 2, loc_id: "DOOR-1" }, { line: 1, qty: 3, loc_id: "A-7" }]
        })
        expect204(received)
        const [atDoor, elsewhere] = yield* contentsOf(t.P, "NUT")
        const tasks = yield* t.P.post("/putaway-tasks", { content_id: atDoor!.content_id })
        assert.deepStrictEqual(
          [tasks.status, tasks.body.map((task: Task) => [task.from_loc_id, task.to_loc_id, task.quantity])],
          [201, [["DOOR-1", "S-1", 2]]]
        )
        expectError(
          yield* t.P.post("/putaway-tasks", { content_id: elsewhere!.content_id }),
          409,
          `Content ${elsewhere!.content_id} is at A-7, not at a receiving location`
        )
        expectError(yield* t.P.post("/putaway-tasks", {}), 400, "Missing field content_id")
        expectError(
          yield* t.P.post("/putaway-tasks", { content_id: 99999 }),
          404,
          "Inventory content with contentId 99999 not found"
        )
        // The rest of the pre-advice goes to RECEIVING; a receipt with putaway places only that.
        const rest = yield* t.P.post(`/preadvices/${id}/receive`, { putaway: true })
        expectStatus(rest, 200)
        const [, , atReceiving] = yield* contentsOf(t.P, "NUT")
        assert.deepStrictEqual(yield* planned(t.P, rest.body.tasks), [[atReceiving!.content_id, 1, "RECEIVING", "S-1"]])
      }))

    it.effect("the site setting turns putaway on for receipts that do not say; a body may still say no", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "CAN", description: "Can" }))
        expectStatus(yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Storage" }), 201)
        // Off by default: a receipt answers 204 and makes no task, locations or not.
        expect204(yield* t.P.post(`/preadvices/${yield* preAdvice(t.P, "CAN", 1)}/receive`, {}))
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks")).body, [])

        expect204(yield* t.P.put(`/sites/${t.p}/settings`, { putaway_on_receipt: true }))
        const byDefault = yield* t.P.post(`/preadvices/${yield* preAdvice(t.P, "CAN", 2)}/receive`, null)
        expectStatus(byDefault, 200)
        assert.strictEqual(byDefault.body.tasks.length, 1)
        expect204(yield* t.P.post(`/preadvices/${yield* preAdvice(t.P, "CAN", 3)}/receive`, { putaway: false }))
        const explicit = yield* t.P.post(`/preadvices/${yield* preAdvice(t.P, "CAN", 4)}/receive`, { putaway: null })
        expectStatus(explicit, 200)
        assert.deepStrictEqual(
          (yield* t.P.get("/movement-tasks")).body.map((task: Task) => task.quantity),
          [2, 4]
        )
        // Another site keeps its own setting.
        expect204(yield* t.F.post("/skus", { sku_id: "CAN", description: "Can" }))
        expect204(yield* t.F.post(`/preadvices/${yield* preAdvice(t.F, "CAN", 1)}/receive`, {}))
      }))

    it.effect("GET and PUT /sites/:id/settings are admin only; an unknown site is a 404", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const t = yield* makeTenants
        const path = `/sites/${t.p}/settings`
        assert.deepStrictEqual((yield* t.P.get(path)).body, {
          putaway_on_receipt: false,
          reallocate_short_picks: false,
          backorders: false,
          count_on_short_pick: false,
          count_variance_threshold: { percent: null, units: null },
          gs1_company_prefix: null,
          sscc_extension_digit: 0,
          pack_before_ship: false
        })
        expect204(yield* t.P.put(path, { putaway_on_receipt: true }))
        expect204(yield* t.P.put(path, {}))
        assert.deepStrictEqual((yield* t.P.get(path)).body, {
          putaway_on_receipt: true,
          reallocate_short_picks: false,
          backorders: false,
          count_on_short_pick: false,
          count_variance_threshold: { percent: null, units: null },
          gs1_company_prefix: null,
          sscc_extension_digit: 0,
          pack_before_ship: false
        })
        expectError(
          yield* t.P.put(path, { putaway_on_receipt: "yes" }),
          400,
          "Invalid field putaway_on_receipt: Expected boolean, actual \"yes\""
        )
        expectError(
          yield* t.P.put(path, { count_variance_threshold: { percent: -1 } }),
          400,
          "Invalid field count_variance_threshold.percent: must be a number from 0 to 1000000"
        )
        expectError(
          yield* t.P.put(path, { count_variance_threshold: { units: 1.5 } }),
          400,
          "Invalid field count_variance_threshold.units: must be a whole number from 0 to 2147483647"
        )
        expectError(yield* t.P.get("/sites/NOPE/settings"), 404, "Site with id NOPE not found")
        expectError(
          yield* t.P.put("/sites/NOPE/settings", { putaway_on_receipt: true }),
          404,
          "Site with id NOPE not found"
        )

        const email = `${unique("clerk")}@example.com`
        expect204(yield* t.P.post("/users", { email, password: "a-long-password", name: "Clerk", site: t.p }))
        const clerk = yield* callerFor(yield* api.login(email, "a-long-password"), t.p)
        expectError(yield* clerk.get(path), 403, "Admin rights required")
        expectError(yield* clerk.put(path, { putaway_on_receipt: false }), 403, "Admin rights required")
        assert.deepStrictEqual((yield* t.P.get(path)).body, {
          putaway_on_receipt: true,
          reallocate_short_picks: false,
          backorders: false,
          count_on_short_pick: false,
          count_variance_threshold: { percent: null, units: null },
          gs1_company_prefix: null,
          sscc_extension_digit: 0,
          pack_before_ship: false
        })
      }))

    it.effect("a receipt or an adjustment into a location that takes no stock in is a 409 that writes nothing", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "BOLT", description: "Bolt" }))
        for (const [locId, status] of [["IN", "Blocked In"], ["OUT", "Blocked Out"], ["SHUT", "Blocked"]]) {
          expectStatus(yield* t.P.post("/locations", { loc_id: locId, loc_type: "Storage", status }), 201)
        }
        const id = yield* preAdvice(t.P, "BOLT", 5)
        const before = yield* snapshot
        for (const [locId, status] of [["IN", "Blocked In"], ["SHUT", "Blocked"]]) {
          expectError(
            yield* t.P.post(`/preadvices/${id}/receive`, { lines: [{ line: 1, qty: 1, loc_id: locId }] }),
            409,
            `Location ${locId} is ${status}`
          )
          expectError(
            yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: locId, qty: 1 }),
            409,
            `Location ${locId} is ${status}`
          )
        }
        assert.strictEqual(yield* snapshot, before)

        // Blocked Out takes stock in, and lets none out.
        expect204(yield* t.P.post(`/preadvices/${id}/receive`, { lines: [{ line: 1, qty: 2, loc_id: "OUT" }] }))
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "OUT", qty: 1 }))
        expectError(
          yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "OUT", qty: -1 }),
          409,
          "Location OUT is Blocked Out"
        )
        assert.strictEqual((yield* contentsOf(t.P, "BOLT"))[0]!.qty, 3)
        // Blocked In lets stock out.
        expect204(yield* t.P.put("/locations/OUT", { loc_type: "Storage", status: "Blocked In" }))
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "OUT", qty: -1 }))
        assert.strictEqual((yield* contentsOf(t.P, "BOLT"))[0]!.qty, 2)
      }))
  })
}
