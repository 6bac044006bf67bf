import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { serverOnApiTestStores } from "../../../testing/server.js"
import { type Caller, expect204, expectError, expectStatus, makeTenants } from "../../../testing/world.js"

interface Task {
  readonly id: number
  readonly task_type: string
  readonly content_id: number
  readonly quantity: number
  readonly tag_id: string
  readonly from_loc_id: string
  readonly to_loc_id: string
}

/** The Open Replenish tasks of the site as `[from, tag, qty, to]`, by id. */
const replenishing = (caller: Caller) =>
  Effect.map(
    caller.get("/movement-tasks?task_type=Replenish"),
    (r) => (r.body as Array<Task>).map((t) => [t.from_loc_id, t.tag_id, t.quantity, t.to_loc_id])
  )

/** Stock of the SKU at a location under a tag, by a positive adjustment. */
const stock = (caller: Caller, skuId: string, locId: string, tagId: string, qty: number, expiry?: string) =>
  Effect.map(
    caller.post("/inventory/adjustments", {
      sku_id: skuId,
      loc_id: locId,
      tag_id: tagId,
      qty,
      ...(expiry === undefined ? {} : { expiry_date: expiry })
    }),
    (r) => expect204(r, `stock of ${skuId} at ${locId}`)
  )

const locations = (caller: Caller, list: ReadonlyArray<Record<string, unknown>>) =>
  Effect.forEach(list, (location) => Effect.map(caller.post("/locations", location), (r) => expectStatus(r, 201)))

/** A site with SKU JAM, reserve locations R-1 and R-2 (Storage), pick face PF-1 and a Staging location. */
const jamSite = (caller: Caller, sku: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    expect204(yield* caller.post("/skus", { sku_id: "JAM", description: "Jam", expiry_sku: false, ...sku }))
    yield* locations(caller, [
      { loc_id: "R-1", loc_type: "Storage", zone: "A" },
      { loc_id: "R-2", loc_type: "Storage", zone: "A" },
      { loc_id: "PF-1", loc_type: "PickFace", zone: "A" },
      { loc_id: "ST-1", loc_type: "Staging" }
    ])
  })

/** Starts a wave of one order of `qty` of the SKU; yields the wave's id. */
const startWave = (caller: Caller, orderId: string, skuId: string, qty: number) =>
  Effect.gen(function*() {
    expect204(yield* caller.post("/orders", { order_id: orderId, lines: [{ sku_id: skuId, qty }] }))
    expect204(
      yield* caller.post("/wave-definitions", { description: orderId, criterium_id: 2, value: orderId, pick_type: 1 })
    )
    const definitions = (yield* caller.get("/wave-definitions")).body as Array<{ id: number }>
    const created = yield* caller.post("/waves/create", { wavedef_id: definitions.at(-1)!.id })
    expectStatus(created, 200)
    expectStatus(yield* caller.post("/waves/start", { wave_id: created.body.wave_id }), 200)
    return created.body.wave_id as number
  })

/** What the pick-face and task tables and the stock hold, to prove a refused write changed nothing. */
const snapshot = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return JSON.stringify([
    yield* sql`SELECT * FROM pick_faces ORDER BY site_id, sku_id, loc_id`,
    yield* sql`SELECT * FROM movement_tasks ORDER BY id`,
    yield* sql`SELECT * FROM contents ORDER BY content_id`
  ])
}).pipe(Effect.orDie)

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`pick faces on ${label}`, (it) => {
    it.effect("PUT upserts a setting (204), GET shows it with the face's stock, the list filters, DELETE removes it", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P)
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 5, max_qty: 20 }))
        yield* stock(t.P, "JAM", "PF-1", "T-0", 3)
        const face = {
          sku_id: "JAM",
          loc_id: "PF-1",
          min_qty: 5,
          max_qty: 20,
          replenish_multiple: null,
          qty: 3,
          qty_allocated: 0,
          inbound_qty: 0,
          level: 3
        }
        assert.deepStrictEqual(yield* Effect.map(t.P.get("/pick-faces/JAM/PF-1"), (r) => [r.status, r.body]), [
          200,
          face
        ])
        // Upsert: a second PUT replaces the setting.
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 2, max_qty: 12, replenish_multiple: 4 }))
        const replaced = { ...face, min_qty: 2, max_qty: 12, replenish_multiple: 4 }
        assert.deepStrictEqual((yield* t.P.get("/pick-faces")).body, [replaced])
        assert.deepStrictEqual((yield* t.P.get("/pick-faces?sku_id=JAM&loc_id=PF-1")).body, [replaced])
        assert.deepStrictEqual((yield* t.P.get("/pick-faces?loc_id=R-1")).body, [])
        assert.deepStrictEqual((yield* t.P.get("/pick-faces?limit=1&offset=1")).body, [])

        expect204(yield* t.P.del("/pick-faces/JAM/PF-1"))
        expectError(yield* t.P.get("/pick-faces/JAM/PF-1"), 404, "Pick face JAM at PF-1 not found")
        expectError(yield* t.P.del("/pick-faces/JAM/PF-1"), 404, "Pick face JAM at PF-1 not found")
        assert.deepStrictEqual((yield* t.P.get("/pick-faces")).body, [])
      }))

    it.effect("refusals write nothing: 400 for the quantities, 404 for the SKU and the location, 409 for a location not a pick face", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P)
        const before = yield* snapshot
        expectError(
          yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 5, max_qty: 5 }),
          400,
          "Invalid field max_qty: must be greater than min_qty, 5"
        )
        expectError(
          yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 1, max_qty: 5, replenish_multiple: 6 }),
          400,
          "Invalid field replenish_multiple: must be at most max_qty, 5"
        )
        expectStatus(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: -1, max_qty: 5 }), 400)
        expectStatus(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 1.5, max_qty: 5 }), 400)
        expectStatus(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 1, max_qty: 5, replenish_multiple: 0 }), 400)
        expectError(yield* t.P.put("/pick-faces/JAM/PF-1", { max_qty: 5 }), 400, "Missing field min_qty")
        expectError(
          yield* t.P.put("/pick-faces/NOPE/PF-1", { min_qty: 1, max_qty: 5 }),
          404,
          "SKU with id NOPE not found"
        )
        expectError(
          yield* t.P.put("/pick-faces/JAM/NOWHERE", { min_qty: 1, max_qty: 5 }),
          404,
          "Location with id NOWHERE not found"
        )
        expectError(
          yield* t.P.put("/pick-faces/JAM/R-1", { min_qty: 1, max_qty: 5 }),
          409,
          "Location R-1 is not a pick face"
        )
        assert.strictEqual(yield* snapshot, before)
      }))

    it.effect("a client's scope sees and sets the faces of its own SKUs only", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.F1.post("/skus", { sku_id: "OWN", description: "Own" }))
        expect204(yield* t.F2.post("/skus", { sku_id: "OTHER", description: "Other" }))
        expectStatus(yield* t.F.post("/locations", { loc_id: "PF-1", loc_type: "PickFace" }), 201)
        expect204(yield* t.F1.put("/pick-faces/OWN/PF-1", { min_qty: 1, max_qty: 5 }))
        expect204(yield* t.F2.put("/pick-faces/OTHER/PF-1", { min_qty: 1, max_qty: 5 }))
        expectError(
          yield* t.F1.put("/pick-faces/OTHER/PF-1", { min_qty: 1, max_qty: 5 }),
          404,
          "SKU with id OTHER not found"
        )
        expectError(yield* t.F1.get("/pick-faces/OTHER/PF-1"), 404, "Pick face OTHER at PF-1 not found")
        expectError(yield* t.F1.del("/pick-faces/OTHER/PF-1"), 404, "Pick face OTHER at PF-1 not found")
        assert.deepStrictEqual((yield* t.F1.get("/pick-faces")).body.map((f: { sku_id: string }) => f.sku_id), ["OWN"])
        assert.deepStrictEqual(
          (yield* t.F.get("/pick-faces")).body.map((f: { sku_id: string }) => f.sku_id),
          ["OTHER", "OWN"]
        )
      }))

    it.effect("a run fills a face below min up to max from the reserve in FEFO order, once: a second run makes none while one is Open", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P, { expiry_sku: true, expiry_days: 100 })
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 5, max_qty: 20 }))
        yield* stock(t.P, "JAM", "PF-1", "T-0", 2, "2099-01-01")
        yield* stock(t.P, "JAM", "R-1", "T-LATE", 30, "2099-06-01")
        yield* stock(t.P, "JAM", "R-2", "T-SOON", 7, "2099-02-01")
        // Expired stock and stock outside Storage are no sources.
        yield* stock(t.P, "JAM", "R-2", "T-OLD", 50, "2000-01-01")
        yield* stock(t.P, "JAM", "ST-1", "T-STAGED", 50, "2099-01-15")

        const run = yield* t.P.post("/replenishments/run", {})
        expectStatus(run, 200)
        assert.strictEqual(run.body.tasks.length, 2)
        assert.deepStrictEqual(yield* replenishing(t.P), [["R-2", "T-SOON", 7, "PF-1"], ["R-1", "T-LATE", 11, "PF-1"]])
        assert.deepStrictEqual((yield* t.P.get("/pick-faces/JAM/PF-1")).body.level, 20)
        assert.deepStrictEqual((yield* t.P.post("/replenishments/run", {})).body, { tasks: [] })

        // Confirmed, the stock is at the face; the level is at max and nothing more is needed.
        for (const id of run.body.tasks) expect204(yield* t.P.post(`/movement-tasks/${id}/confirm`, {}))
        const face = (yield* t.P.get("/pick-faces/JAM/PF-1")).body
        assert.deepStrictEqual([face.qty, face.inbound_qty, face.level], [20, 0, 20])
        assert.deepStrictEqual((yield* t.P.post("/replenishments/run", { sku_id: "JAM" })).body, { tasks: [] })
        const ledger = (yield* t.P.get("/inventory/transactions")).body as Array<{ transaction_type: string }>
        assert.deepStrictEqual(ledger.filter((e) => e.transaction_type === "Replenish").length, 2)
      }))

    it.effect("concurrent runs make one set of tasks per face", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P)
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 5, max_qty: 20 }))
        yield* stock(t.P, "JAM", "R-1", "T-1", 6)
        yield* stock(t.P, "JAM", "R-2", "T-2", 30)
        const runs = yield* Effect.all(
          Array.from({ length: 6 }, () => t.P.post("/replenishments/run", {})),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(runs.map((r) => r.status), [200, 200, 200, 200, 200, 200])
        assert.deepStrictEqual(runs.flatMap((r) => r.body.tasks).length, 2)
        assert.deepStrictEqual(yield* replenishing(t.P), [["R-1", "T-1", 6, "PF-1"], ["R-2", "T-2", 14, "PF-1"]])
      }))

    it.effect("the quantity is rounded down to the multiple and capped by the face's capacity; the run's filters", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P, { each_weight: 1 })
        expect204(yield* t.P.post("/skus", { sku_id: "TEA", description: "Tea" }))
        expect204(yield* t.P.put("/locations/PF-1", { loc_type: "PickFace", zone: "A", max_weight: 17 }))
        expectStatus(yield* t.P.post("/locations", { loc_id: "PF-2", loc_type: "PickFace", zone: "B" }), 201)
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 5, max_qty: 40, replenish_multiple: 6 }))
        expect204(yield* t.P.put("/pick-faces/TEA/PF-2", { min_qty: 1, max_qty: 10 }))
        yield* stock(t.P, "JAM", "R-1", "T-1", 100)
        yield* stock(t.P, "TEA", "R-2", "T-2", 100)
        // Zone B holds only TEA's face.
        expectStatus(yield* t.P.post("/replenishments/run", { zone: "B" }), 200)
        assert.deepStrictEqual(yield* replenishing(t.P), [["R-2", "T-2", 10, "PF-2"]])
        // 40 wanted, 17 kg of room at 1 kg each: 17, rounded down to the multiple of 6: 12.
        expectStatus(yield* t.P.post("/replenishments/run", { sku_id: "JAM" }), 200)
        assert.deepStrictEqual(yield* replenishing(t.P), [["R-2", "T-2", 10, "PF-2"], ["R-1", "T-1", 12, "PF-1"]])
        assert.deepStrictEqual((yield* t.P.get("/locations/PF-1")).body.over_capacity, false)
      }))

    it.effect("a wave start that allocates from a face replenishes it in the same transaction", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P)
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 5, max_qty: 20 }))
        // The face's stock is the oldest: allocation takes it first.
        yield* stock(t.P, "JAM", "PF-1", "T-0", 10)
        yield* stock(t.P, "JAM", "R-1", "T-1", 30)
        assert.deepStrictEqual(yield* replenishing(t.P), [])
        yield* startWave(t.P, "O-1", "JAM", 8)
        // Level 10 − 8 = 2 < 5: 18 more bring it to 20.
        assert.deepStrictEqual(yield* replenishing(t.P), [["R-1", "T-1", 18, "PF-1"]])
        const face = (yield* t.P.get("/pick-faces/JAM/PF-1")).body
        assert.deepStrictEqual([face.qty, face.qty_allocated, face.inbound_qty, face.level], [10, 8, 18, 20])
      }))

    it.effect("a pick confirmed at a face replenishes it (here the face was set after the wave start)", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P)
        yield* stock(t.P, "JAM", "PF-1", "T-0", 10)
        yield* stock(t.P, "JAM", "R-1", "T-1", 30)
        const waveId = yield* startWave(t.P, "O-2", "JAM", 8)
        // Set after the start: the start triggered nothing, the pick does.
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 5, max_qty: 20 }))
        assert.deepStrictEqual(yield* replenishing(t.P), [])
        const [task] = (yield* t.P.get(`/tasks?wave_id=${waveId}`)).body as Array<{ id: number; from_loc_id: string }>
        assert.strictEqual(task!.from_loc_id, "PF-1")
        expect204(yield* t.P.post(`/tasks/${task!.id}/confirm`, {}))
        assert.deepStrictEqual(yield* replenishing(t.P), [["R-1", "T-1", 18, "PF-1"]])
      }))

    it.effect("putaway sends the rest below a full pallet to the SKU's pick face when it has room up to max_qty", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        yield* jamSite(t.P, { qty_on_full_pallet: 10 })
        expect204(yield* t.P.put("/pick-faces/JAM/PF-1", { min_qty: 2, max_qty: 12 }))
        const receive = (id: string, qty: number) =>
          Effect.gen(function*() {
            expect204(yield* t.P.post("/preadvices", { pre_advice_id: id, lines: [{ sku_id: "JAM", qty }] }))
            const received = yield* t.P.post(`/preadvices/${id}/receive`, { putaway: true })
            expectStatus(received, 200)
            return yield* Effect.forEach(
              received.body.tasks as Array<number>,
              (taskId) => Effect.map(t.P.get(`/movement-tasks/${taskId}`), (r) => [r.body.quantity, r.body.to_loc_id])
            )
          })
        // Full pallets to storage, the 7 left to the face (level 0 + 7 ≤ 12).
        assert.deepStrictEqual(yield* receive("PA-1", 27), [[10, "R-1"], [10, "R-1"], [7, "PF-1"]])
        // The face's level is 7 with the task inbound: 7 more would exceed 12, so they go to storage.
        assert.deepStrictEqual(yield* receive("PA-2", 7), [[7, "R-1"]])
        assert.deepStrictEqual(yield* receive("PA-3", 5), [[5, "PF-1"]])
      }))
  })
}
