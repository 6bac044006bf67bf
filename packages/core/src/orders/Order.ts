/**
 * Outbound orders and their lines (API §2.2, §4.2) as the API shows them and as the write bodies
 * carry them.
 */
import { Schema } from "effect"
import { CalendarDate, maxInteger, Quantity, RecordId } from "../shared/Formats.js"
import { StoredText } from "../shared/Text.js"
import { maxLineNumber } from "./LineNumbering.js"

/** An order line as the API shows it. */
export const OrderLine = Schema.Struct({
  order_id: Schema.String,
  line: Schema.Number,
  sku_id: Schema.String,
  qty: Schema.Number,
  qty_picked: Schema.Number,
  qty_shipped: Schema.Number,
  /**
   * What short picks left to a backorder order, made when the order ships: only on a line that has
   * some, so that a site without backorders answers as before they existed.
   */
  qty_backordered: Schema.optional(Schema.Number)
})
export type OrderLine = typeof OrderLine.Type

const orderHeader = {
  order_id: Schema.String,
  client_id: Schema.NullOr(Schema.String),
  order_date: Schema.NullOr(Schema.String),
  order_status: Schema.Struct({ id: Schema.Number, description: Schema.String }),
  order_status_description: Schema.String,
  customer: Schema.NullOr(Schema.Struct({ id: Schema.Number, name: Schema.String })),
  ship_by_date: Schema.NullOr(Schema.String),
  carrier: Schema.NullOr(Schema.String),
  ship_dock: Schema.NullOr(Schema.String),
  creation_datetime: Schema.String,
  created_by: Schema.String,
  /** `Transfer` for an order sent to another site of the installation (spec §3 T1), else `Customer`. */
  order_type: Schema.Literal("Customer", "Transfer"),
  /** The site a transfer goes to; null on a customer order. */
  to_site: Schema.NullOr(Schema.String),
  /** On a backorder order only: the order whose short picks it ships. */
  backorder_of: Schema.optional(Schema.String)
}

/** A shipping unit of the order as its record shows it (packing spec §4 P5); its lines are in the packing list. */
export const OrderShippingUnit = Schema.Struct({
  sscc: Schema.String,
  unit_type: Schema.Literal("Carton", "Pallet"),
  parent_sscc: Schema.NullOr(Schema.String),
  weight: Schema.Number,
  tracking_number: Schema.NullOr(Schema.String)
})
export type OrderShippingUnit = typeof OrderShippingUnit.Type

/**
 * An order as `GET /orders/:id` shows it (§2.2), with its shipping units (`[]` when none), which
 * the events whose data is the order carry too.
 */
export const Order = Schema.Struct({
  ...orderHeader,
  lines: Schema.Array(OrderLine),
  shipping_units: Schema.Array(OrderShippingUnit)
})
export type Order = typeof Order.Type

/** An order in `GET /orders`: without `lines` when they are suppressed by `lines=false`. */
export const OrderListItem = Schema.Struct({ ...orderHeader, lines: Schema.optional(Schema.Array(OrderLine)) })
export type OrderListItem = typeof OrderListItem.Type

/** An order id in a path: any text the store can look up; one that does not exist is a 404. */
export const OrderIdFromPath = StoredText

/** An order id on write: 1 to 100 characters, not only blanks (it is a key of the store). */
export const OrderId = StoredText.pipe(
  Schema.filter((s) => s.trim() !== "", { message: () => "must not be empty" }),
  Schema.filter((s) => s.length <= 100, { message: () => "must be at most 100 characters" })
)

const LineNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= maxLineNumber, {
    message: () => `must be an integer from 1 to ${maxLineNumber}`,
    jsonSchema: { type: "integer", minimum: 1, maximum: maxLineNumber }
  })
)

// Quantity bounded by what the store's 32-bit column holds.
const LineQuantity = Quantity.pipe(
  Schema.filter((n) => n <= maxInteger, { message: () => `must be at most ${maxInteger}` })
)

const SkuReference = StoredText.pipe(Schema.filter((s) => s !== "", { message: () => "must not be empty" }))

// Absent and null are both accepted; what they mean (none, or unchanged) is up to the operation.
const optional = <S extends Schema.Schema.Any>(schema: S) => Schema.optional(Schema.NullOr(schema))

/** An order line on write; without `line` it gets the next free number. */
export const NewOrderLine = Schema.Struct({
  sku_id: SkuReference,
  qty: LineQuantity,
  line: optional(LineNumber)
})
export type NewOrderLine = typeof NewOrderLine.Type

/** A site named as a transfer's destination: any text a site id may be; one that does not exist is a 404. */
const SiteReference = StoredText.pipe(
  Schema.filter((s) => s !== "" && s.length <= 64, { message: () => "must be a site id of 1 to 64 characters" })
)

/**
 * The body of `POST /orders`. Optional fields may be left out (a typed client need not name them)
 * or null. With `to_site` instead of `customer_id` the order is a transfer to that site (spec §3 T1).
 */
export const NewOrder = Schema.Struct({
  order_id: OrderId,
  customer_id: optional(RecordId),
  to_site: optional(SiteReference),
  order_date: optional(CalendarDate),
  ship_by_date: optional(CalendarDate),
  carrier_id: optional(RecordId),
  ship_dock: optional(StoredText),
  lines: optional(Schema.Array(NewOrderLine).annotations({ message: () => "must be an array of order lines" }))
})
export type NewOrder = typeof NewOrder.Type

/** The body of `PUT /orders/:id`: only the fields present change; `null` clears one. */
export const OrderUpdate = Schema.Struct({
  customer_id: optional(RecordId),
  order_date: optional(CalendarDate),
  ship_by_date: optional(CalendarDate),
  carrier_id: optional(RecordId),
  ship_dock: optional(StoredText)
})
export type OrderUpdate = typeof OrderUpdate.Type

/** The body of `PUT /orders/:id/lines/:line_id`. */
export const OrderLineUpdate = Schema.Struct({
  sku_id: SkuReference,
  qty: LineQuantity
})
export type OrderLineUpdate = typeof OrderLineUpdate.Type
