/**
 * Orders as the API shows them (§2.2): the record schemas and the view of a stored order. Shared
 * by the services that answer with an order or raise an event about one.
 */
import { Schema } from "effect"
import { composeCustomerName } from "./CustomerName.js"
import { formatDateTime } from "../shared/Formats.js"
import type { OrderLineRow, OrderRow, StoredOrder } from "./OrderRepository.js"
import { type StatusId, statusDescription, statusObject } from "../shared/Status.js"

/** An order line as the API shows it. */
export const OrderLine = Schema.Struct({
  order_id: Schema.String,
  line: Schema.Number,
  sku_id: Schema.String,
  qty: Schema.Number,
  qty_picked: Schema.Number,
  qty_shipped: Schema.Number
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
  created_by: Schema.String
}

/** An order as `GET /orders/:id` shows it (§2.2). */
export const Order = Schema.Struct({ ...orderHeader, lines: Schema.Array(OrderLine) })
export type Order = typeof Order.Type

/** An order in `GET /orders`: without `lines` when they are suppressed by `lines=false`. */
export const OrderListItem = Schema.Struct({ ...orderHeader, lines: Schema.optional(Schema.Array(OrderLine)) })
export type OrderListItem = typeof OrderListItem.Type

/** The description of a status id, for the order statuses the store may hold. */
export const describeStatus = (statusId: number) => statusDescription(statusId as StatusId) ?? `status ${statusId}`

const utcInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

// Stored instants are UTC ISO text, so in UTC the date and time are read off it: Intl's formatter
// costs more than the rest of an order's view, and a list shows hundreds.
const creationDateTime = (instant: string, timeZone: string) =>
  timeZone === "UTC" && utcInstant.test(instant)
    ? `${instant.slice(0, 10)} ${instant.slice(11, 19)}`
    : formatDateTime(instant, timeZone)

const customerName = (row: OrderRow) =>
  row.customer_name === null ? "" : composeCustomerName(row.customer_name, row.customer_town)

const toLine = (orderId: string, row: OrderLineRow): OrderLine => ({
  order_id: orderId,
  line: row.line,
  sku_id: row.sku_id,
  qty: row.qty,
  qty_picked: row.qty_picked,
  qty_shipped: row.qty_shipped
})

/** The header of an order as the API shows it, without lines. */
export const toOrderHeader = (row: OrderRow, timeZone: string) => ({
  order_id: row.order_id,
  client_id: row.client_id,
  order_date: row.order_date,
  order_status: statusObject(row.status_id as StatusId),
  order_status_description: describeStatus(row.status_id),
  customer: row.customer_id === null ? null : { id: row.customer_id, name: customerName(row) },
  ship_by_date: row.ship_by_date,
  carrier: row.carrier_name,
  ship_dock: row.ship_dock,
  creation_datetime: creationDateTime(row.created_at, timeZone),
  created_by: row.created_by
})

/** An order as `GET /orders/:id` shows it. */
export const toOrder = ({ header, lines }: StoredOrder, timeZone: string): Order => ({
  ...toOrderHeader(header, timeZone),
  lines: lines.map((line) => toLine(header.order_id, line))
})

