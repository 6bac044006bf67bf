/**
 * The contract of `ShippingUnitRepository` on both stores (spec §4): units with their lines and
 * the weights of their SKUs, the scope rule, SSCCs unique on a site, the SSCC counter, and the lock
 * on order lines under which packed never exceeds picked (P2).
 */
import { assert } from "@effect/vitest"
import {
  type NewShippingUnitRow,
  OrderRepository,
  type OrderUnitRow,
  type Owner,
  PickingRepository,
  ShippingUnitRepository,
  SkuRepository,
  Transactor
} from "@wms/core"
import { Effect, Option } from "effect"
import { fresh, insertOrder, makeTenants, onEachStore, skuOf, waitsForCommit } from "./Contract.js"

const unitOf = (owner: Owner, orderRef: number, fields: Partial<NewShippingUnitRow> = {}): NewShippingUnitRow => ({
  owner,
  sscc: fresh("00000000000000").padStart(18, "0").slice(-18),
  order_ref: orderRef,
  unit_type: "Carton",
  parent_id: null,
  tare_weight: 0.5,
  created_at: "2030-01-01T11:00:00.000Z",
  created_by: "packer",
  ...fields
})

/** An order of the owner with lines A×5 and B×2, of which A 4 and B 2 are picked; A weighs 1.25 each. */
const pickedOrder = (owner: Owner) =>
  Effect.gen(function*() {
    const skus = yield* SkuRepository
    yield* skus.insert(owner.site_id, skuOf("A", owner.client_id, { each_weight: 1.25 })).pipe(Effect.ignore)
    yield* skus.insert(owner.site_id, skuOf("B", owner.client_id)).pipe(Effect.ignore)
    const orderId = fresh("SO")
    const ref = yield* insertOrder(owner, orderId, [["A", 5], ["B", 2]], { status_id: 18 })
    const picking = yield* PickingRepository
    yield* picking.addPicked(ref, 1, 4)
    yield* picking.addPicked(ref, 2, 2)
    return { ref, orderId }
  })

const insertUnit = (unit: NewShippingUnitRow) =>
  Effect.map(Effect.flatMap(ShippingUnitRepository, (units) => units.insert(unit)), Option.getOrThrow)

onEachStore("ShippingUnitRepository", (it) => {
  it.effect("inserts a unit Open at its tare, and reads it with its order's id and its lines' SKU weights", () =>
    Effect.gen(function*() {
      const units = yield* ShippingUnitRepository
      const t = yield* makeTenants
      const { orderId, ref } = yield* pickedOrder(t.client1.owner)
      const id = yield* insertUnit(unitOf(t.client1.owner, ref, { sscc: "106141411234567897" }))
      yield* units.addLine(id, { order_line: 1, sku_id: "A", qty: 2 })
      yield* units.addLine(id, { order_line: 2, sku_id: "B", qty: 1 })
      yield* units.addLine(id, { order_line: 1, sku_id: "A", qty: 1 })
      const found = Option.getOrThrow(yield* units.find(t.client1.scope, id))
      assert.deepStrictEqual(found, {
        id,
        site_id: t.site.owner.site_id,
        client_id: t.client1.owner.client_id,
        sscc: "106141411234567897",
        order_ref: ref,
        order_id: orderId,
        unit_type: "Carton",
        parent_id: null,
        status_id: 1,
        tare_weight: 0.5,
        weight: 0.5,
        length: null,
        width: null,
        height: null,
        tracking_number: null,
        created_at: "2030-01-01T11:00:00.000Z",
        created_by: "packer",
        lines: [
          { order_line: 1, sku_id: "A", qty: 3, each_weight: 1.25 },
          { order_line: 2, sku_id: "B", qty: 1, each_weight: null }
        ]
      })
      assert.deepStrictEqual(yield* units.ofOrder(ref), [found])
    }))

  it.effect("shows a unit to its site's scope and its client's, lists by id with filters and windows", () =>
    Effect.gen(function*() {
      const units = yield* ShippingUnitRepository
      const t = yield* makeTenants
      const first = yield* pickedOrder(t.client1.owner)
      const second = yield* pickedOrder(t.client2.owner)
      const a = yield* insertUnit(unitOf(t.client1.owner, first.ref))
      const b = yield* insertUnit(unitOf(t.client2.owner, second.ref, { unit_type: "Pallet" }))
      const c = yield* insertUnit(unitOf(t.client1.owner, first.ref))
      yield* units.setStatus(c, 20)
      const ids = (list: ReadonlyArray<{ readonly id: number }>) => list.map((unit) => unit.id)
      assert.deepStrictEqual(ids(yield* units.list(t.site.scope, {}, {})), [a, b, c])
      assert.deepStrictEqual(ids(yield* units.list(t.client1.scope, {}, {})), [a, c])
      assert.deepStrictEqual(ids(yield* units.list(t.other.scope, {}, {})), [])
      assert.deepStrictEqual(ids(yield* units.list(t.site.scope, { order_id: first.orderId }, {})), [a, c])
      assert.deepStrictEqual(ids(yield* units.list(t.site.scope, { status_id: 20 }, {})), [c])
      assert.deepStrictEqual(ids(yield* units.list(t.site.scope, {}, { limit: 1, offset: 1 })), [b])
      assert.isTrue(Option.isNone(yield* units.find(t.client2.scope, a)))
      assert.isTrue(Option.isNone(yield* units.find(t.other.scope, a)))
    }))

  it.effect("keeps an SSCC unique on its site: a second insert of it is none, another site may have it", () =>
    Effect.gen(function*() {
      const t = yield* makeTenants
      const units = yield* ShippingUnitRepository
      const order = yield* pickedOrder(t.site.owner)
      const elsewhere = yield* pickedOrder(t.other.owner)
      yield* insertUnit(unitOf(t.site.owner, order.ref, { sscc: "106141411234567897" }))
      assert.isTrue(
        Option.isNone(yield* units.insert(unitOf(t.client1.owner, order.ref, { sscc: "106141411234567897" })))
      )
      yield* insertUnit(unitOf(t.other.owner, elsewhere.ref, { sscc: "106141411234567897" }))
    }))

  it.effect("counts SSCC serials per site from 1, never the same twice, even to transactions side by side", () =>
    Effect.gen(function*() {
      const units = yield* ShippingUnitRepository
      const { atomically } = yield* Transactor
      const t = yield* makeTenants
      assert.strictEqual(yield* units.nextSerial(t.site.owner.site_id), 1)
      assert.strictEqual(yield* units.nextSerial(t.other.owner.site_id), 1)
      const serials = yield* Effect.all(
        Array.from({ length: 8 }, () => atomically(units.nextSerial(t.site.owner.site_id))),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual([...serials].sort((x, y) => x - y), [2, 3, 4, 5, 6, 7, 8, 9])
    }))

  it.effect("locks order lines and answers what was picked and packed of each, counting every unit", () =>
    Effect.gen(function*() {
      const units = yield* ShippingUnitRepository
      const t = yield* makeTenants
      const { ref } = yield* pickedOrder(t.site.owner)
      const carton = yield* insertUnit(unitOf(t.site.owner, ref))
      const other = yield* insertUnit(unitOf(t.site.owner, ref))
      yield* units.addLine(carton, { order_line: 1, sku_id: "A", qty: 2 })
      yield* units.addLine(other, { order_line: 1, sku_id: "A", qty: 1 })
      assert.deepStrictEqual(yield* units.lockLines(ref, [2, 1, 9]), [
        { line: 1, sku_id: "A", qty_picked: 4, qty_packed: 3 },
        { line: 2, sku_id: "B", qty_picked: 2, qty_packed: 0 }
      ])
      // A second packer of line 1 waits for the first, then counts what it packed.
      const seen = yield* waitsForCommit(
        Effect.zipRight(units.lockLines(ref, [1]), units.addLine(carton, { order_line: 1, sku_id: "A", qty: 1 })),
        units.lockLines(ref, [1])
      )
      assert.deepStrictEqual(seen, [{ line: 1, sku_id: "A", qty_picked: 4, qty_packed: 4 }])
    }))

  it.effect("removes lines, sets status, fields and weights, unpacks a pallet's cartons loose, ships an order's units", () =>
    Effect.gen(function*() {
      const units = yield* ShippingUnitRepository
      const t = yield* makeTenants
      const { ref } = yield* pickedOrder(t.site.owner)
      const pallet = yield* insertUnit(unitOf(t.site.owner, ref, { unit_type: "Pallet", tare_weight: 20 }))
      const carton = yield* insertUnit(unitOf(t.site.owner, ref, { parent_id: pallet }))
      yield* units.addLine(carton, { order_line: 1, sku_id: "A", qty: 2 })
      yield* units.addLine(pallet, { order_line: 2, sku_id: "B", qty: 2 })
      assert.isTrue(yield* units.removeLine(carton, 1))
      assert.isFalse(yield* units.removeLine(carton, 1))
      yield* units.update(carton, { tracking_number: "1Z999", length: 40.5, width: 30, height: null })
      yield* units.setWeights(new Map([[pallet, 21.75], [carton, 0.5]]))
      yield* units.setStatus(carton, 20)
      const read = (id: number) => Effect.map(units.find(t.site.scope, id), Option.getOrThrow)
      const before = yield* read(carton)
      assert.deepStrictEqual(
        [before.lines, before.tracking_number, before.length, before.width, before.height, before.status_id],
        [[], "1Z999", 40.5, 30, null, 20]
      )
      assert.strictEqual((yield* read(pallet)).weight, 21.75)
      yield* units.remove(pallet)
      assert.deepStrictEqual((yield* units.ofOrder(ref)).map((unit) => [unit.id, unit.parent_id]), [[carton, null]])
      yield* units.shipOrder(ref)
      assert.strictEqual((yield* read(carton)).status_id, 19)
      assert.deepStrictEqual(yield* units.lockLines(ref, [2]), [{ line: 2, sku_id: "B", qty_picked: 2, qty_packed: 0 }])
    }))

  it.effect("shows an order's units with the order read alone, by id, and not in lists", () =>
    Effect.gen(function*() {
      const orders = yield* OrderRepository
      const units = yield* ShippingUnitRepository
      const t = yield* makeTenants
      const { orderId, ref } = yield* pickedOrder(t.site.owner)
      const bare = yield* pickedOrder(t.site.owner)
      const pallet = yield* insertUnit(unitOf(t.site.owner, ref, { unit_type: "Pallet", sscc: "106141411234567897" }))
      const carton = yield* insertUnit(unitOf(t.site.owner, ref, { parent_id: pallet }))
      yield* units.update(carton, { tracking_number: "1Z999" })
      yield* units.setWeights(new Map([[pallet, 21.5]]))
      const expected: ReadonlyArray<OrderUnitRow> = [
        {
          id: pallet,
          sscc: "106141411234567897",
          unit_type: "Pallet",
          parent_id: null,
          weight: 21.5,
          tracking_number: null
        },
        {
          id: carton,
          sscc: (yield* units.ofOrder(ref))[1].sscc,
          unit_type: "Carton",
          parent_id: pallet,
          weight: 0.5,
          tracking_number: "1Z999"
        }
      ]
      assert.deepStrictEqual(Option.getOrThrow(yield* orders.find(t.site.scope, orderId)).units, expected)
      assert.deepStrictEqual((yield* orders.findMany([ref, bare.ref])).map((order) => order.units), [expected, []])
      const listed = (yield* orders.list(t.site.scope, true)).find((order) => order.header.ref === ref)
      assert.isUndefined(listed?.units)
    }))
})
