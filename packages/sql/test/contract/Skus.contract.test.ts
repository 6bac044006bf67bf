/**
 * The contract of `SkuRepository` and `SkuGroupRepository` on both stores.
 */
import { assert, describe } from "@effect/vitest"
import { type ClientId, SiteId, SkuGroupRepository, SkuRepository, Transactor } from "@wms/core"
import { Effect, Option } from "effect"
import { byCodeUnits, fresh, makeTenants, onEachStore, skuOf, waitsForCommit } from "./Contract.js"

onEachStore("SKUs", (it) => {
  describe("SkuRepository", () => {
    it.effect("inserts a SKU once per site and finds it on its site, whichever client owns it", () =>
      Effect.gen(function*() {
        const skus = yield* SkuRepository
        const t = yield* makeTenants
        const sku = skuOf("A", t.client1.owner.client_id)
        assert.isTrue(yield* skus.insert(t.site.owner.site_id, sku))
        assert.isFalse(yield* skus.insert(t.site.owner.site_id, skuOf("A")))
        assert.isTrue(yield* skus.insert(t.other.owner.site_id, skuOf("A")))
        assert.deepStrictEqual(yield* skus.find(t.site.owner.site_id, "A"), Option.some(sku))
        assert.deepStrictEqual(yield* skus.find(t.other.owner.site_id, "A"), Option.some(skuOf("A")))
        assert.isTrue(Option.isNone(yield* skus.find(t.site.owner.site_id, "a")))
        assert.isTrue(Option.isNone(yield* skus.find(SiteId.make(fresh("nowhere")), "A")))
      }))

    it.effect("finds many SKUs of a site at once, whichever client owns them, leaving out unknown ids", () =>
      Effect.gen(function*() {
        const skus = yield* SkuRepository
        const t = yield* makeTenants
        const siteId = t.site.owner.site_id
        const a = skuOf("A", t.client1.owner.client_id, { qty_on_full_pallet: 48, each_weight: 0.1 })
        yield* skus.insert(siteId, a)
        yield* skus.insert(siteId, skuOf("B"))
        yield* skus.insert(t.other.owner.site_id, skuOf("C"))
        const found = yield* skus.findMany(siteId, ["B", "A", "NOPE", "C", "A"])
        assert.deepStrictEqual([...found.keys()].sort(), ["A", "B"])
        assert.deepStrictEqual(found.get("A"), a)
        assert.deepStrictEqual(found.get("B"), Option.getOrThrow(yield* skus.find(siteId, "B")))
        assert.strictEqual((yield* skus.findMany(siteId, [])).size, 0)
      }))

    it.effect("keeps every field's type: booleans, 64-bit doubles, 32-bit counts, empty text apart from null", () =>
      Effect.gen(function*() {
        const skus = yield* SkuRepository
        const groups = yield* SkuGroupRepository
        const t = yield* makeTenants
        yield* groups.insert(t.site.owner, { sku_group_id: "G", description: "Group", client_id: null })
        const full = skuOf("FULL", null, {
          description: "",
          ean: "",
          sku_group: "G",
          expiry_sku: true,
          expiry_days: 0,
          obsolete: true,
          new: false,
          each_width: 0.1,
          each_height: 1 / 3,
          each_depth: 1e-7,
          each_weight: 123456789.123,
          each_volume: 0,
          each_value: 2 ** 53,
          preferred_putaway_location: "",
          qty_on_full_pallet: 2147483647,
          default_receipt_quantity: 0,
          pick_method: 2
        })
        yield* skus.insert(t.site.owner.site_id, full)
        assert.deepStrictEqual(yield* skus.find(t.site.owner.site_id, "FULL"), Option.some(full))
        const empty = skuOf("EMPTY")
        yield* skus.insert(t.site.owner.site_id, empty)
        assert.deepStrictEqual(yield* skus.find(t.site.owner.site_id, "EMPTY"), Option.some(empty))
      }))

    it.effect("updates every field but the id and the owner", () =>
      Effect.gen(function*() {
        const skus = yield* SkuRepository
        const t = yield* makeTenants
        yield* skus.insert(t.site.owner.site_id, skuOf("U", t.client1.owner.client_id))
        yield* skus.insert(t.other.owner.site_id, skuOf("U"))
        const changed = skuOf("U", t.client2.owner.client_id, {
          description: "Changed",
          ean: "8712345678906",
          expiry_sku: true,
          expiry_days: 30,
          each_weight: 2.5,
          pick_method: 2
        })
        yield* skus.update(t.site.owner.site_id, changed)
        assert.deepStrictEqual(
          yield* skus.find(t.site.owner.site_id, "U"),
          Option.some({ ...changed, client_id: t.client1.owner.client_id })
        )
        // The SKU of that id on another site stays as it was.
        assert.deepStrictEqual(yield* skus.find(t.other.owner.site_id, "U"), Option.some(skuOf("U")))
      }))

    it.effect("lists the SKUs a scope sees by their ids' bytes, with their group's description, in windows", () =>
      Effect.gen(function*() {
        const skus = yield* SkuRepository
        const groups = yield* SkuGroupRepository
        const t = yield* makeTenants
        yield* groups.insert(t.site.owner, { sku_group_id: "G", description: "Group G", client_id: null })
        const ofSite = ["b", "B", "a"]
        const ofClient1 = ["_", "A", "a1"]
        for (const id of ofSite) yield* skus.insert(t.site.owner.site_id, skuOf(id, null, { sku_group: "G" }))
        for (const id of ofClient1) yield* skus.insert(t.site.owner.site_id, skuOf(id, t.client1.owner.client_id))
        yield* skus.insert(t.other.owner.site_id, skuOf("other"))

        const listed = yield* skus.list(t.site.scope, {})
        assert.deepStrictEqual(listed.map((sku) => sku.sku_id), byCodeUnits([...ofSite, ...ofClient1]))
        assert.deepStrictEqual(listed.find((sku) => sku.sku_id === "b"), {
          sku_id: "b",
          client_id: null,
          description: "Article b",
          ean: null,
          sku_group_description: "Group G",
          expiry_sku: false,
          expiry_days: null
        })
        assert.isNull(listed.find((sku) => sku.sku_id === "A")!.sku_group_description)
        assert.deepStrictEqual((yield* skus.list(t.client1.scope, {})).map((sku) => sku.sku_id), byCodeUnits(ofClient1))
        assert.deepStrictEqual(yield* skus.list(t.client2.scope, {}), [])
        const all = listed.map((sku) => sku.sku_id)
        const idsIn = (window: { limit?: number; offset?: number }) =>
          Effect.map(skus.list(t.site.scope, window), (list) => list.map((sku) => sku.sku_id))
        assert.deepStrictEqual(yield* idsIn({ limit: 2, offset: 1 }), all.slice(1, 3))
        assert.deepStrictEqual(yield* idsIn({ offset: 4 }), all.slice(4))
        assert.deepStrictEqual(yield* skus.list(t.site.scope, { limit: 0 }), [])
      }))
  })

  describe("SkuGroupRepository", () => {
    it.effect("counts group ids per site, never giving one twice, even to concurrent transactions", () =>
      Effect.gen(function*() {
        const groups = yield* SkuGroupRepository
        const t = yield* makeTenants
        assert.strictEqual(yield* groups.nextId(t.site.owner.site_id), "1")
        assert.strictEqual(yield* groups.nextId(t.site.owner.site_id), "2")
        assert.strictEqual(yield* groups.nextId(t.other.owner.site_id), "1")
        const { atomically } = yield* Transactor
        const ids = yield* Effect.all(
          Array.from({ length: 10 }, () => atomically(groups.nextId(t.site.owner.site_id))),
          { concurrency: "unbounded" }
        )
        const numbers = ids.map(Number).sort((a, b) => a - b)
        assert.deepStrictEqual(numbers, Array.from({ length: 10 }, (_, i) => i + 3))
      }))

    it.effect("inserts a group once per site, finds, updates and removes it on its site only", () =>
      Effect.gen(function*() {
        const groups = yield* SkuGroupRepository
        const t = yield* makeTenants
        const group = { sku_group_id: "7", description: "Seven", client_id: t.client1.owner.client_id }
        assert.isTrue(yield* groups.insert(t.client1.owner, group))
        assert.isFalse(yield* groups.insert(t.site.owner, { ...group, client_id: null }))
        assert.isTrue(yield* groups.insert(t.other.owner, { ...group, client_id: null }))
        assert.deepStrictEqual(yield* groups.find(t.site.owner.site_id, "7", "none"), Option.some(group))
        assert.isTrue(Option.isNone(yield* groups.find(t.site.owner.site_id, "8", "none")))

        assert.isTrue(yield* groups.update(t.site.owner.site_id, "7", ""))
        const emptied = { ...group, description: "" }
        assert.deepStrictEqual(yield* groups.find(t.site.owner.site_id, "7", "share"), Option.some(emptied))
        assert.isFalse(yield* groups.update(t.site.owner.site_id, "8", "Eight"))

        yield* groups.remove(t.site.owner.site_id, "7")
        assert.isTrue(Option.isNone(yield* groups.find(t.site.owner.site_id, "7", "update")))
        assert.isFalse(yield* groups.update(t.site.owner.site_id, "7", "Gone"))
        assert.deepStrictEqual(
          yield* groups.find(t.other.owner.site_id, "7", "none"),
          Option.some({ ...group, client_id: null })
        )
      }))

    it.effect("tells whether a SKU of the site is in the group", () =>
      Effect.gen(function*() {
        const groups = yield* SkuGroupRepository
        const skus = yield* SkuRepository
        const t = yield* makeTenants
        yield* groups.insert(t.site.owner, { sku_group_id: "G", description: "G", client_id: null })
        yield* groups.insert(t.other.owner, { sku_group_id: "G", description: "G", client_id: null })
        assert.isFalse(yield* groups.isUsed(t.site.owner.site_id, "G"))
        yield* skus.insert(t.site.owner.site_id, skuOf("S", t.client2.owner.client_id, { sku_group: "G" }))
        assert.isTrue(yield* groups.isUsed(t.site.owner.site_id, "G"))
        assert.isFalse(yield* groups.isUsed(t.other.owner.site_id, "G"))
      }))

    it.effect("lists the groups a scope sees, shorter ids first, then by bytes, in windows", () =>
      Effect.gen(function*() {
        const groups = yield* SkuGroupRepository
        const t = yield* makeTenants
        const ofSite = ["10", "9", "b", "B", "2"]
        const groupOf = (id: string, client_id: ClientId | null = null) => ({
          sku_group_id: id,
          description: id,
          client_id
        })
        for (const id of ofSite) yield* groups.insert(t.site.owner, groupOf(id))
        yield* groups.insert(t.client1.owner, groupOf("a", t.client1.owner.client_id))
        yield* groups.insert(t.other.owner, { sku_group_id: "1", description: "1", client_id: null })
        const ids = (yield* groups.list(t.site.scope, {})).map((group) => group.sku_group_id)
        assert.deepStrictEqual(ids, ["2", "9", "B", "a", "b", "10"])
        assert.deepStrictEqual(yield* groups.list(t.client1.scope, {}), [
          { sku_group_id: "a", description: "a", client_id: t.client1.owner.client_id }
        ])
        assert.deepStrictEqual(yield* groups.list(t.client2.scope, {}), [])
        const window = yield* groups.list(t.site.scope, { limit: 3, offset: 2 })
        assert.deepStrictEqual(window.map((g) => g.sku_group_id), ids.slice(2, 5))
      }))

    it.effect("find with a lock keeps a writer of the group out until the transaction ends", () =>
      Effect.gen(function*() {
        const groups = yield* SkuGroupRepository
        const t = yield* makeTenants
        yield* groups.insert(t.site.owner, { sku_group_id: "L", description: "Before", client_id: null })
        for (const lock of ["share", "update"] as const) {
          const site = t.site.owner.site_id
          const seen = yield* waitsForCommit(
            groups.find(site, "L", lock),
            Effect.zipRight(groups.update(site, "L", lock), groups.find(site, "L", "none"))
          )
          assert.strictEqual(Option.getOrThrow(seen).description, lock)
        }
      }))
  })
})
