/**
 * Shipping units (spec §4): the cartons and pallets one order's picked goods are packed into, as
 * the API shows them and as the write bodies carry them.
 */
import { Schema } from "effect"
import { OrderIdFromPath, OrderShippingUnit } from "../orders/Order.js"
import { maxInteger, Quantity, RecordId, RecordIdFromPath } from "../shared/Formats.js"
import { StoredText } from "../shared/Text.js"
import { ListWindow } from "../shared/Window.js"
import { isValidSscc } from "./Sscc.js"

/** What a unit is: a carton, or a pallet that may carry cartons of its order. */
export const UnitType = OrderShippingUnit.fields.unit_type
export type UnitType = typeof UnitType.Type

/** A line of a unit: how much of an order line it holds. */
export const ShippingUnitLine = Schema.Struct({
  order_line: Schema.Number,
  sku_id: Schema.String,
  qty: Schema.Number
})
export type ShippingUnitLine = typeof ShippingUnitLine.Type

/** A shipping unit as `GET /shipping-units/:id` shows it. */
export const ShippingUnit = Schema.Struct({
  id: Schema.Number,
  sscc: Schema.String,
  order_id: Schema.String,
  unit_type: UnitType,
  parent_id: Schema.NullOr(Schema.Number),
  status: Schema.String,
  status_id: Schema.Number,
  tare_weight: Schema.Number,
  /** Tare plus the lines' quantities times their SKUs' `each_weight`, plus a pallet's cartons. */
  weight: Schema.Number,
  length: Schema.NullOr(Schema.Number),
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  tracking_number: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  creation_datetime: Schema.String,
  lines: Schema.Array(ShippingUnitLine)
})
export type ShippingUnit = typeof ShippingUnit.Type

/** An order's units with their lines and weights, as `GET /orders/:id/packing-list` answers. */
export const PackingList = Schema.Struct({
  order_id: Schema.String,
  /** The sum of the weights of the units that have no parent: every unit counted once. */
  total_weight: Schema.Number,
  units: Schema.Array(Schema.Struct({
    sscc: Schema.String,
    unit_type: UnitType,
    parent_sscc: Schema.NullOr(Schema.String),
    status: Schema.String,
    tare_weight: Schema.Number,
    weight: Schema.Number,
    length: Schema.NullOr(Schema.Number),
    width: Schema.NullOr(Schema.Number),
    height: Schema.NullOr(Schema.Number),
    tracking_number: Schema.NullOr(Schema.String),
    lines: Schema.Array(ShippingUnitLine)
  }))
})
export type PackingList = typeof PackingList.Type

const Measure = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n >= 0 && n <= 1_000_000_000, {
    message: () => "must be a number from 0 to 1000000000",
    jsonSchema: { minimum: 0, maximum: 1_000_000_000 }
  })
)

/** A client's own SSCC: 18 digits ending in their check digit. */
export const Sscc = Schema.String.pipe(
  Schema.filter(isValidSscc, {
    message: () => "must be an SSCC of 18 digits with a valid check digit",
    jsonSchema: { pattern: "^\\d{18}$" }
  })
)

const OrderLineNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= maxInteger, {
    message: () => "must be an order line number",
    jsonSchema: { type: "integer", minimum: 1, maximum: maxInteger }
  })
)

/** The body of `POST /shipping-units/:id/lines`, and a line of a new unit. */
export const NewShippingUnitLine = Schema.Struct({
  order_line: OrderLineNumber,
  qty: Quantity
})
export type NewShippingUnitLine = typeof NewShippingUnitLine.Type

const TrackingNumber = StoredText.pipe(
  Schema.filter((s) => s.length <= 100, { message: () => "must be at most 100 characters" })
)

/** The body of `POST /shipping-units`. */
export const NewShippingUnit = Schema.Struct({
  order_id: OrderIdFromPath,
  unit_type: UnitType,
  sscc: Schema.optional(Schema.NullOr(Sscc)),
  parent_id: Schema.optional(Schema.NullOr(RecordId)),
  tare_weight: Schema.optional(Schema.NullOr(Measure)),
  lines: Schema.optional(Schema.NullOr(Schema.Array(NewShippingUnitLine)))
})
export type NewShippingUnit = typeof NewShippingUnit.Type

/** The body of `PUT /shipping-units/:id`: the fields present change; `null` clears one. */
export const ShippingUnitUpdate = Schema.Struct({
  tracking_number: Schema.optional(Schema.NullOr(TrackingNumber)),
  length: Schema.optional(Schema.NullOr(Measure)),
  width: Schema.optional(Schema.NullOr(Measure)),
  height: Schema.optional(Schema.NullOr(Measure))
})
export type ShippingUnitUpdate = typeof ShippingUnitUpdate.Type

/** The query of `GET /shipping-units`. */
export const ShippingUnitQuery = Schema.Struct({
  order_id: Schema.optional(OrderIdFromPath),
  status_id: Schema.optional(RecordIdFromPath),
  ...ListWindow.fields
})
export type ShippingUnitQuery = typeof ShippingUnitQuery.Type
