/**
 * The pure rules of packing (spec §4): SSCC-18 with its check digit (P1), the weights of units
 * (P4) and what holds a ship by unit (P5).
 */
import { assert, describe, it } from "@effect/vitest"
import { checkDigit, isValidSscc, makeSscc, maxSerial, shipGate, weighUnits } from "@wms/core"
import { checkPacking, type ShippingUnitView } from "@wms/core/testing"
import { Option } from "effect"
import fc from "fast-check"

describe("SSCC-18", () => {
  it("computes GS1's check digit, weights 3 and 1 from the right", () => {
    // GS1's own example SSCC: (00) 1 0614141 123456789 7.
    assert.strictEqual(checkDigit("10614141123456789"), 7)
    assert.strictEqual(makeSscc(1, "0614141", 123456789), "106141411234567897")
    assert.isTrue(isValidSscc("106141411234567897"))
    assert.isFalse(isValidSscc("106141411234567898"))
    assert.isFalse(isValidSscc("10614141123456789"))
    assert.isFalse(isValidSscc("1061414112345678a7"))
  })

  it("pads the serial to fill 17 digits, leaving 16 digits less the prefix to it", () => {
    assert.strictEqual(makeSscc(0, "1234567890", 1).slice(0, 17), "01234567890000001")
    assert.strictEqual(maxSerial("1234567890"), 999_999)
    assert.strictEqual(maxSerial("1234567"), 999_999_999)
  })

  it("property: every SSCC made has 18 digits and a valid check digit, and distinct serials distinct SSCCs", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 9 }),
      fc.integer({ min: 7, max: 10 }).chain((length) => fc.stringMatching(new RegExp(`^\\d{${length}}$`))),
      fc.nat(),
      fc.nat(),
      (extension, prefix, a, b) => {
        const serialA = (a % maxSerial(prefix)) + 1
        const serialB = (b % maxSerial(prefix)) + 1
        const sscc = makeSscc(extension, prefix, serialA)
        assert.match(sscc, /^\d{18}$/)
        assert.isTrue(isValidSscc(sscc))
        assert.strictEqual(sscc.startsWith(`${extension}${prefix}`), true)
        assert.strictEqual(sscc === makeSscc(extension, prefix, serialB), serialA === serialB)
      }
    ))
  })

  it("property: changing any one digit of a valid SSCC makes it invalid", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 999_999_999 }),
      fc.integer({ min: 0, max: 17 }),
      fc.integer({ min: 1, max: 9 }),
      (serial, position, delta) => {
        const sscc = makeSscc(0, "1234567", serial)
        const digit = (Number(sscc[position]) + delta) % 10
        assert.isFalse(isValidSscc(`${sscc.slice(0, position)}${digit}${sscc.slice(position + 1)}`))
      }
    ))
  })
})

describe("weighUnits", () => {
  it("weighs tare plus each line's qty × each_weight, a pallet with its cartons, without binary noise", () => {
    const weights = weighUnits([
      { id: 1, parent_id: null, tare_weight: 20, lines: [{ qty: 2, each_weight: 0.1 }] },
      { id: 2, parent_id: 1, tare_weight: 0.5, lines: [{ qty: 3, each_weight: 0.1 }, { qty: 4, each_weight: null }] },
      { id: 3, parent_id: 1, tare_weight: 0.2, lines: [] },
      { id: 4, parent_id: null, tare_weight: 0, lines: [] }
    ])
    assert.deepStrictEqual([...weights], [[1, 21.2], [2, 0.8], [3, 0.2], [4, 0]])
  })
})

describe("shipGate", () => {
  const lines = [{ line: 1, qty_picked: 3 }, { line: 2, qty_picked: 0 }]
  const unit = (status_id: number, qty: number) => ({ status_id, lines: [{ order_line: 1, qty }] })

  it("refuses what is picked and not packed, then units not closed, and passes a packed and closed order", () => {
    const message = (gate: ReturnType<typeof shipGate>) => Option.map(gate, (error) => error.message)
    assert.deepStrictEqual(
      message(shipGate("SO-1", lines, [])),
      Option.some("Order SO-1 has 3 picked units not packed")
    )
    assert.deepStrictEqual(
      message(shipGate("SO-1", lines, [unit(20, 1), unit(1, 1)])),
      Option.some("Order SO-1 has 1 picked units not packed")
    )
    assert.deepStrictEqual(
      message(shipGate("SO-1", lines, [unit(20, 1), unit(1, 2)])),
      Option.some("Order SO-1 has 1 shipping units not closed")
    )
    assert.deepStrictEqual(shipGate("SO-1", lines, [unit(20, 1), unit(20, 2)]), Option.none())
  })
})

describe("checkPacking", () => {
  const order = (status: number, units: ReadonlyArray<{ sscc: string; parent_sscc: string | null }>) => ({
    order_id: "SO-1",
    order_status: { id: status },
    lines: [{ line: 1, qty: 5, qty_picked: 3, qty_shipped: 0 }],
    shipping_units: units
  })
  const unit = (id: number, sscc: string, qty: number, fields: Partial<ShippingUnitView> = {}): ShippingUnitView => ({
    id,
    sscc,
    order_id: "SO-1",
    unit_type: "Carton",
    parent_id: null,
    status_id: 20,
    lines: [{ order_line: 1, qty }],
    ...fields
  })
  const valid = makeSscc(0, "0614141", 1)
  const other = makeSscc(0, "0614141", 2)

  it("passes packing that holds, and names each broken rule", () => {
    const pallet = unit(1, valid, 1, { unit_type: "Pallet" })
    assert.deepStrictEqual(
      checkPacking(order(18, [{ sscc: valid, parent_sscc: null }, { sscc: other, parent_sscc: valid }]), [
        pallet,
        unit(2, other, 2, { parent_id: 1 })
      ]),
      []
    )
    assert.deepStrictEqual(
      checkPacking(order(19, [{ sscc: valid, parent_sscc: null }]), [
        unit(1, valid, 2),
        unit(2, valid, 2, { parent_id: 1, status_id: 19 })
      ]),
      [
        `unit 1 of shipped order SO-1 is status 20`,
        `unit 2: SSCC ${valid} is another unit's too`,
        "unit 2: a Carton on unit 1, not a carton on a pallet",
        "order SO-1 line 1: 4 packed, 3 picked",
        `order SO-1 shows units ${valid}<null, its units are ${valid}<null,${valid}<${valid}`
      ]
    )
  })
})
