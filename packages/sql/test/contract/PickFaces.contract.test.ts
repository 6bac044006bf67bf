/**
 * The contract of `PickFaceRepository` on both stores: settings upserted, listed in a scope by
 * byte order with their face's stock, found, removed; the settings of a location locked; the reserve of a SKU locked in content order.
 */
import { assert } from "@effect/vitest"
import { InventoryRepository, LocationRepository, PickFaceRepository, type StoredPickFace } from "@wms/core"
import { Effect, Option } from "effect"
import {
  assertDies,
  insertContent,
  insertLocations,
  insertSkus,
  insertTasks,
  locationOf,
  makeTenants,
  onEachStore,
  taskOf,
  waitsForCommit
} from "./Contract.js"

const face = (siteId: string, skuId: string, locId: string, fields: Partial<StoredPickFace> = {}): StoredPickFace => ({
  site_id: siteId,
  sku_id: skuId,
  loc_id: locId,
  min_qty: 1,
  max_qty: 10,
  replenish_multiple: null,
  ...fields
})

const nothing = { qty: 0, qty_allocated: 0, inbound: 0, replenishing: 0 }

onEachStore("PickFaceRepository", (it) => {
  it.effect("upserts, lists by byte order in a scope with each face's stock, finds and removes settings", () =>
    Effect.gen(function*() {
      const faces = yield* PickFaceRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertSkus(t.client1.owner, ["b", "B"])
      yield* insertSkus(t.client2.owner, ["A"])
      yield* insertLocations(siteId, ["PF-1"], { loc_type: "PickFace", zone: "Z" })
      yield* insertLocations(siteId, ["PF-2"], { loc_type: "PickFace" })
      yield* faces.upsert(face(siteId, "b", "PF-1"))
      yield* faces.upsert(face(siteId, "B", "PF-2", { replenish_multiple: 2147483647, max_qty: 2147483647 }))
      yield* faces.upsert(face(siteId, "A", "PF-1"))
      yield* faces.upsert(face(siteId, "b", "PF-1", { min_qty: 0, max_qty: 7 }))

      const content = yield* insertContent(t.client1.owner, { sku_id: "b", loc_id: "PF-1", qty: 9, qty_allocated: 4 })
      yield* insertContent(t.client1.owner, { sku_id: "b", loc_id: "ELSEWHERE", qty: 100 })
      yield* insertTasks([
        taskOf(t.client1.owner, content, { sku_id: "b", to_loc_id: "PF-1", qty: 3, task_type: "Replenish" }),
        taskOf(t.client1.owner, content, { sku_id: "b", to_loc_id: "PF-1", qty: 2, task_type: "Putaway" }),
        taskOf(t.client1.owner, content, { sku_id: "b", to_loc_id: "PF-1", qty: 50, status_id: 20 })
      ])
      const stockOfB = { qty: 9, qty_allocated: 4, inbound: 5, replenishing: 3 }

      const listed = yield* faces.list(t.site.scope, {}, {})
      assert.deepStrictEqual(listed.map((f) => [f.sku_id, f.loc_id]), [["A", "PF-1"], ["B", "PF-2"], ["b", "PF-1"]])
      assert.deepStrictEqual(listed[2], { ...face(siteId, "b", "PF-1", { min_qty: 0, max_qty: 7 }), ...stockOfB })
      assert.deepStrictEqual(listed[1].replenish_multiple, 2147483647)
      assert.deepStrictEqual(
        (yield* faces.list(t.client1.scope, {}, {})).map((f) => f.sku_id),
        ["B", "b"]
      )
      assert.deepStrictEqual((yield* faces.list(t.site.scope, { zone: "Z" }, {})).map((f) => f.sku_id), ["A", "b"])
      assert.deepStrictEqual((yield* faces.list(t.site.scope, { loc_id: "PF-2" }, {})).map((f) => f.sku_id), ["B"])
      assert.deepStrictEqual((yield* faces.list(t.site.scope, { sku_id: "A" }, {})).map((f) => f.loc_id), ["PF-1"])
      assert.deepStrictEqual(
        (yield* faces.list(t.site.scope, {}, { limit: 1, offset: 1 })).map((f) => f.sku_id),
        ["B"]
      )
      assert.deepStrictEqual(yield* faces.list(t.other.scope, {}, {}), [])

      assert.deepStrictEqual(
        yield* faces.find(siteId, "b", "PF-1"),
        Option.some({ ...face(siteId, "b", "PF-1", { min_qty: 0, max_qty: 7 }), ...stockOfB })
      )
      assert.deepStrictEqual(yield* faces.faceStock(siteId, "b", "PF-1"), stockOfB)
      assert.deepStrictEqual(yield* faces.faceStock(siteId, "b", "NOWHERE"), nothing)
      assert.isTrue(Option.isNone(yield* faces.find(siteId, "b", "PF-2")))
      assert.deepStrictEqual(
        (yield* faces.findMany(siteId, [{ sku_id: "b", loc_id: "PF-1" }, { sku_id: "A", loc_id: "PF-2" }]))
          .map((f) => [f.sku_id, f.loc_id]),
        [["b", "PF-1"]]
      )
      assert.deepStrictEqual(yield* faces.findMany(siteId, []), [])
      assert.deepStrictEqual((yield* faces.ofSkus(siteId, ["b"])).map((f) => f.loc_id), ["PF-1"])

      assert.isTrue(yield* faces.remove(siteId, "b", "PF-1"))
      assert.isFalse(yield* faces.remove(siteId, "b", "PF-1"))
      assert.isTrue(Option.isNone(yield* faces.find(siteId, "b", "PF-1")))
      // Deleting the location deletes its settings.
      yield* (yield* LocationRepository).remove(siteId, "PF-1")
      assert.deepStrictEqual((yield* faces.list(t.site.scope, {}, {})).map((f) => f.sku_id), ["B"])
    }))

  it.effect("gives the settings of many SKUs at once, by sku_id and loc_id in byte order", () =>
    Effect.gen(function*() {
      const faces = yield* PickFaceRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertSkus(t.site.owner, ["b", "B", "C"])
      yield* insertLocations(siteId, ["PF-2", "PF-1", "PF-3"], { loc_type: "PickFace" })
      yield* faces.upsert(face(siteId, "b", "PF-2"))
      yield* faces.upsert(face(siteId, "b", "PF-1"))
      yield* faces.upsert(face(siteId, "B", "PF-3", { max_qty: 7 }))
      yield* faces.upsert(face(siteId, "C", "PF-3"))
      assert.deepStrictEqual(
        (yield* faces.ofSkus(siteId, ["b", "B", "NOPE", "b"])).map((f) => [f.sku_id, f.loc_id, f.max_qty]),
        [["B", "PF-3", 7], ["b", "PF-1", 10], ["b", "PF-2", 10]]
      )
      assert.deepStrictEqual(yield* faces.ofSkus(siteId, []), [])
      assert.deepStrictEqual(yield* faces.ofSkus(t.other.owner.site_id, ["b"]), [])
    }))

  it.effect("reads the stock of every face at locations at once, as faceStock reads each", () =>
    Effect.gen(function*() {
      const faces = yield* PickFaceRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertSkus(t.site.owner, ["A", "B"])
      yield* insertLocations(siteId, ["PF-1", "PF-2"], { loc_type: "PickFace" })
      yield* faces.upsert(face(siteId, "A", "PF-1"))
      yield* faces.upsert(face(siteId, "B", "PF-1"))
      yield* faces.upsert(face(siteId, "A", "PF-2"))
      const content = yield* insertContent(t.site.owner, { sku_id: "A", loc_id: "PF-1", qty: 9, qty_allocated: 4 })
      yield* insertTasks([
        taskOf(t.site.owner, content, { sku_id: "A", to_loc_id: "PF-1", qty: 3, task_type: "Replenish" }),
        taskOf(t.site.owner, content, { sku_id: "B", to_loc_id: "PF-1", qty: 2, task_type: "Putaway" })
      ])
      const read = yield* faces.stockAt(siteId, ["PF-1", "NOWHERE", "PF-1"])
      assert.deepStrictEqual(
        [...read].sort((a, b) => a.sku_id < b.sku_id ? -1 : 1),
        [
          { sku_id: "A", loc_id: "PF-1", stock: yield* faces.faceStock(siteId, "A", "PF-1") },
          { sku_id: "B", loc_id: "PF-1", stock: yield* faces.faceStock(siteId, "B", "PF-1") }
        ]
      )
      assert.deepStrictEqual(read.find((f) => f.sku_id === "A")?.stock, {
        qty: 9,
        qty_allocated: 4,
        inbound: 3,
        replenishing: 3
      })
      assert.deepStrictEqual(yield* faces.stockAt(siteId, []), [])
    }))

  it.effect("a setting with min_qty not below max_qty, or at a location without a record, is refused by the store", () =>
    Effect.gen(function*() {
      const faces = yield* PickFaceRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["PF-1"], { loc_type: "PickFace" })
      yield* assertDies(faces.upsert(face(siteId, "A", "PF-1", { min_qty: 5, max_qty: 5 })))
      yield* assertDies(faces.upsert(face(siteId, "A", "NOWHERE")))
    }))

  it.effect("locks the settings at locations until the transaction ends, in (loc_id, sku_id) order", () =>
    Effect.gen(function*() {
      const faces = yield* PickFaceRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["PF-1", "PF-2"], { loc_type: "PickFace" })
      for (const [sku, loc] of [["B", "PF-2"], ["b", "PF-1"], ["A", "PF-1"]]) {
        yield* faces.upsert(face(siteId, sku, loc))
      }
      assert.deepStrictEqual(
        (yield* faces.lockAt(siteId, ["PF-2", "PF-1"])).map((f) => [f.loc_id, f.sku_id]),
        [["PF-1", "A"], ["PF-1", "b"], ["PF-2", "B"]]
      )
      assert.deepStrictEqual(yield* faces.lockAt(siteId, []), [])
      const settled = yield* waitsForCommit(
        faces.lockAt(siteId, ["PF-1"]),
        Effect.zipRight(
          faces.upsert(face(siteId, "A", "PF-1", { max_qty: 99 })),
          faces.find(siteId, "A", "PF-1")
        )
      )
      assert.deepStrictEqual(Option.map(settled, (f) => f.max_qty), Option.some(99))
    }))

  it.effect("locks the reserve of SKUs: contents with stock available at Storage locations, by content_id", () =>
    Effect.gen(function*() {
      const faces = yield* PickFaceRepository
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      yield* insertLocations(siteId, ["R-1", "R-2"])
      yield* (yield* LocationRepository).insert(locationOf(siteId, "PF-1", { loc_type: "PickFace" }))
      const first = yield* insertContent(t.client1.owner, { sku_id: "A", loc_id: "R-2", qty: 5 })
      const second = yield* insertContent(t.client2.owner, { sku_id: "A", loc_id: "R-1", qty: 5 })
      yield* insertContent(t.client1.owner, { sku_id: "A", loc_id: "PF-1", qty: 5 })
      yield* insertContent(t.client1.owner, { sku_id: "A", loc_id: "UNMANAGED", qty: 5 })
      yield* insertContent(t.client1.owner, { sku_id: "A", loc_id: "R-1", qty: 5, qty_allocated: 5 })
      const third = yield* insertContent(t.client1.owner, { sku_id: "B", loc_id: "R-1", qty: 5 })
      assert.deepStrictEqual(
        (yield* faces.lockReserve(siteId, ["A", "B"])).map((c) => c.content_id),
        [first, second, third]
      )
      assert.deepStrictEqual(yield* faces.lockReserve(siteId, []), [])
      yield* waitsForCommit(
        faces.lockReserve(siteId, ["A"]),
        inventory.lockContent(t.site.scope, second)
      )
    }))
})
