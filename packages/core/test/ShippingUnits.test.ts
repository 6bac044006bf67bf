/**
 * The rules of packing (spec §4) on stubbed ports: the SSCC from the site's prefix and counter
 * (P1), packed never above picked under the order's and its lines' locks (P2), the status rules
 * of closing (P3), nesting (P4), and the order of the checks.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  defaultSiteSettings,
  type NewShippingUnit,
  OrderRepository,
  type PackableLine,
  ShippingUnitRepository,
  type ShippingUnitRow,
  ShippingUnits,
  type SiteSettings,
  SiteSettingsRepository,
  type StoredOrder
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option } from "effect"
import { failure, siteActor } from "./Fixtures.js"

const order: StoredOrder = {
  header: {
    ref: 7,
    order_id: "SO-1",
    client_id: null,
    order_date: null,
    status_id: 18,
    customer_id: null,
    customer_name: null,
    customer_town: null,
    ship_by_date: null,
    carrier_name: null,
    ship_dock: null,
    created_at: "2030-01-01T08:00:00.000Z",
    created_by: "user-1",
    backorder_of: null,
    to_site: null
  },
  lines: [{ line: 1, sku_id: "A", qty: 5, qty_picked: 4, qty_shipped: 0, qty_backordered: 0 }]
}

const unit = (fields: Partial<ShippingUnitRow> = {}): ShippingUnitRow => ({
  id: 5,
  site_id: "main",
  client_id: null,
  sscc: "006141410000000017",
  order_ref: 7,
  order_id: "SO-1",
  unit_type: "Carton",
  parent_id: null,
  status_id: 1,
  tare_weight: 0.5,
  weight: 0.5,
  length: null,
  width: null,
  height: null,
  tracking_number: null,
  created_at: "2030-01-01T09:00:00.000Z",
  created_by: "user-1",
  lines: [],
  ...fields
})

interface Stubs {
  readonly units?: Partial<Context.Tag.Service<ShippingUnitRepository>>
  readonly orderStatus?: number
  readonly settings?: Partial<SiteSettings>
  readonly packed?: number
}

const withUnits = <A, E>(log: CallLog, stubs: Stubs, f: (units: ShippingUnits) => Effect.Effect<A, E>) =>
  Effect.flatMap(ShippingUnits, f).pipe(Effect.provide(ShippingUnits.Default.pipe(Layer.provide([
    makeTestLayer(ShippingUnitRepository)({
      find: (_, id) => Effect.succeed(id === 5 ? Option.some(unit()) : Option.none()),
      lockLines: (_, lines) =>
        Effect.succeed(
          lines.includes(1)
            ? [{ line: 1, sku_id: "A", qty_picked: 4, qty_packed: stubs.packed ?? 0 } as PackableLine]
            : []
        ),
      addLine: () => Effect.void,
      ofOrder: () => Effect.succeed([unit({ lines: [{ order_line: 1, sku_id: "A", qty: 2, each_weight: 1.5 }] })]),
      setWeights: () => Effect.void,
      ...stubs.units
    }, log),
    makeTestLayer(OrderRepository)({
      find: (_, orderId) => Effect.succeed(orderId === "SO-1" ? Option.some(order) : Option.none()),
      lock: () => Effect.succeed(Option.some(stubs.orderStatus ?? 18))
    }, log),
    makeTestLayer(SiteSettingsRepository)({
      get: () => Effect.succeed({ ...defaultSiteSettings, gs1_company_prefix: "0614141", ...stubs.settings })
    }, log),
    testTransactor(log)
  ]))))

const carton = (fields: Partial<NewShippingUnit> = {}): NewShippingUnit => ({
  order_id: "SO-1",
  unit_type: "Carton",
  lines: [{ order_line: 1, qty: 2 }],
  ...fields
})

describe("ShippingUnits", () => {
  it.effect("creates a unit under its order's lock with the next SSCC of the site, past one a client took", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      let serial = 0
      const stubs: Stubs = {
        settings: { sscc_extension_digit: 3 },
        units: {
          nextSerial: () => Effect.succeed(++serial),
          insert: () => Effect.succeed(serial === 1 ? Option.none() : Option.some(5))
        }
      }
      yield* withUnits(log, stubs, (units) => units.createShippingUnit(siteActor, carton()))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.find",
        "OrderRepository.lock",
        "SiteSettingsRepository.get",
        "ShippingUnitRepository.nextSerial",
        "ShippingUnitRepository.insert",
        "ShippingUnitRepository.nextSerial",
        "ShippingUnitRepository.insert",
        "ShippingUnitRepository.lockLines",
        "ShippingUnitRepository.addLine",
        "ShippingUnitRepository.ofOrder",
        "ShippingUnitRepository.setWeights",
        "ShippingUnitRepository.find",
        "Transactor.commit"
      ])
      const inserted = log.argsOf("ShippingUnitRepository.insert").map(([row]) => (row as { sscc: string }).sscc)
      assert.deepStrictEqual(inserted, ["306141410000000013", "306141410000000020"])
      assert.deepStrictEqual(log.argsOf("ShippingUnitRepository.addLine"), [[5, {
        order_line: 1,
        sku_id: "A",
        qty: 2
      }]])
      // Tare 0.5 + 2 × 1.5.
      assert.deepStrictEqual(log.argsOf("ShippingUnitRepository.setWeights"), [[new Map([[5, 3.5]])]])
    }))

  it.effect("refuses, writing nothing: no prefix, a taken SSCC, a line the order lacks, more than picked, a shipped order", () =>
    Effect.gen(function*() {
      const attempt = (stubs: Stubs, input: NewShippingUnit) => {
        const log = new CallLog()
        return Effect.map(
          failure(withUnits(log, {
            ...stubs,
            units: { nextSerial: () => Effect.succeed(1), insert: () => Effect.succeed(Option.some(5)), ...stubs.units }
          }, (units) => units.createShippingUnit(siteActor, input))),
          (error) => [...error, log.methods.at(-1)]
        )
      }
      assert.deepStrictEqual(yield* attempt({ settings: { gs1_company_prefix: null } }, carton()), [
        "CompanyPrefixMissing",
        "Site main has no gs1_company_prefix",
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(
        yield* attempt(
          { units: { insert: () => Effect.succeed(Option.none()) } },
          carton({ sscc: "106141411234567897" })
        ),
        ["SsccTaken", "SSCC 106141411234567897 is in use on the site", "Transactor.rollback"]
      )
      assert.deepStrictEqual(
        yield* attempt({}, carton({ lines: [{ order_line: 1, qty: 1 }, { order_line: 3, qty: 1 }] })),
        [
          "InvalidInput",
          "Invalid field lines.1.order_line: order SO-1 has no line 3",
          "Transactor.rollback"
        ]
      )
      // Two lines of the body for one order line count together.
      assert.deepStrictEqual(
        yield* attempt({ packed: 1 }, carton({ lines: [{ order_line: 1, qty: 2 }, { order_line: 1, qty: 2 }] })),
        [
          "PackedExceedsPicked",
          "Line 1 of order SO-1 has 4 picked and 1 packed: 4 more exceeds what was picked",
          "Transactor.rollback"
        ]
      )
      assert.deepStrictEqual(yield* attempt({ orderStatus: 19 }, carton()), [
        "OrderPackingClosed",
        "Order SO-1 is shipped: its packing cannot change",
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(yield* attempt({}, carton({ order_id: "SO-9" })), [
        "OrderNotFound",
        "Order with OrderID SO-9 not found",
        "Transactor.rollback"
      ])
    }))

  it.effect("nests a carton only in an open pallet of its own order", () =>
    Effect.gen(function*() {
      const parent = (fields: Partial<ShippingUnitRow>) => ({
        units: {
          find: (_: unknown, id: number) =>
            Effect.succeed(id === 6 ? Option.some(unit({ id: 6, unit_type: "Pallet", ...fields })) : Option.none()),
          nextSerial: () => Effect.succeed(1),
          insert: () => Effect.succeed(Option.some(5))
        }
      } satisfies Stubs)
      const attempt = (stubs: Stubs, input: NewShippingUnit) =>
        failure(withUnits(new CallLog(), stubs, (units) => units.createShippingUnit(siteActor, input)))
      assert.deepStrictEqual(yield* attempt(parent({}), carton({ parent_id: 4 })), [
        "InvalidInput",
        "Invalid field parent_id: shipping unit 4 does not exist"
      ])
      assert.deepStrictEqual(yield* attempt(parent({ unit_type: "Carton" }), carton({ parent_id: 6 })), [
        "InvalidInput",
        "Invalid field parent_id: shipping unit 6 is not a pallet"
      ])
      assert.deepStrictEqual(yield* attempt(parent({ order_ref: 8, order_id: "SO-2" }), carton({ parent_id: 6 })), [
        "InvalidInput",
        "Invalid field parent_id: shipping unit 6 is of order SO-2, not SO-1"
      ])
      assert.deepStrictEqual(yield* attempt(parent({}), carton({ unit_type: "Pallet", parent_id: 6 })), [
        "InvalidInput",
        "Invalid field parent_id: a pallet has no parent"
      ])
      assert.deepStrictEqual(yield* attempt(parent({ status_id: 20 }), carton({ parent_id: 6 })), [
        "ShippingUnitNotOpen",
        "Shipping unit 6 is Complete: its contents cannot change"
      ])
    }))

  it.effect("closes a unit that holds something and no open carton; an unit no longer open takes no lines", () =>
    Effect.gen(function*() {
      const closing = (ofOrder: ReadonlyArray<ShippingUnitRow>, found = unit()) => {
        const log = new CallLog()
        return Effect.map(
          Effect.either(withUnits(log, {
            units: {
              find: () => Effect.succeed(Option.some(found)),
              ofOrder: () => Effect.succeed(ofOrder),
              setStatus: () => Effect.void
            }
          }, (units) => units.closeShippingUnit(siteActor, 5))),
          (result) => result._tag === "Left" ? result.left.message : log.argsOf("ShippingUnitRepository.setStatus")
        )
      }
      assert.strictEqual(yield* closing([]), "Shipping unit 5 is empty")
      const pallet = unit({ unit_type: "Pallet" })
      assert.strictEqual(
        yield* closing([pallet, unit({ id: 9, parent_id: 5 })], pallet),
        "Shipping unit 5 carries open carton 9"
      )
      assert.deepStrictEqual(yield* closing([pallet, unit({ id: 9, parent_id: 5, status_id: 20 })], pallet), [[5, 20]])
      assert.deepStrictEqual(
        yield* failure(
          withUnits(new CallLog(), {
            units: { find: () => Effect.succeed(Option.some(unit({ status_id: 20 }))) }
          }, (units) => units.addShippingUnitLine(siteActor, 5, { order_line: 1, qty: 1 }))
        ),
        ["ShippingUnitNotOpen", "Shipping unit 5 is Complete: its contents cannot change"]
      )
      assert.deepStrictEqual(
        yield* failure(withUnits(new CallLog(), {}, (units) => units.getShippingUnit(siteActor, 4))),
        ["ShippingUnitNotFound", "Shipping unit 4 not found"]
      )
    }))
})
