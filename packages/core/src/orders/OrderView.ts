/**
 * The view of a stored order as the API shows it (§2.2). Shared by the services that answer with
 * an order or raise an event about one.
 */
import { formatDateTime } from "../shared/Formats.js"
import { statusDescription, type StatusId, statusObject } from "../shared/Status.js"
import { composeCustomerName } from "./CustomerName.js"
import type { Order, OrderLine, OrderListItem, OrderShippingUnit } from "./Order.js"
import type { OrderLineRow, OrderRow, OrderUnitRow, StoredOrder } from "./OrderRepository.js"

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

/** A line as the API shows it; `qty_backordered` only on a line a short pick backordered some of. */
const toLine = (orderId: string, row: OrderLineRow): OrderLine => {
  const line = {
    order_id: orderId,
    line: row.line,
    sku_id: row.sku_id,
    qty: row.qty,
    qty_picked: row.qty_picked,
    qty_shipped: row.qty_shipped
  }
  return row.qty_backordered === 0 ? line : { ...line, qty_backordered: row.qty_backordered }
}

/** The header of an order as the API shows it, without lines; `backorder_of` on a backorder order only. */
export const toOrderHeader = (row: OrderRow, timeZone: string) => {
  const header = {
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
    created_by: row.created_by,
    order_type: row.to_site === null ? "Customer" as const : "Transfer" as const,
    to_site: row.to_site
  }
  return row.backorder_of === null ? header : { ...header, backorder_of: row.backorder_of }
}

/** The shipping units of an order as its record shows them, a carton with its pallet's SSCC. */
const toShippingUnits = (units: ReadonlyArray<OrderUnitRow>): ReadonlyArray<OrderShippingUnit> => {
  if (units.length === 0) return []
  const ssccs = new Map(units.map((unit) => [unit.id, unit.sscc]))
  return units.map((unit) => ({
    sscc: unit.sscc,
    unit_type: unit.unit_type,
    parent_sscc: unit.parent_id === null ? null : ssccs.get(unit.parent_id) ?? null,
    weight: unit.weight,
    tracking_number: unit.tracking_number
  }))
}

/** An order in `GET /orders` with its lines. */
export const toOrderListItem = ({ header, lines }: StoredOrder, timeZone: string): OrderListItem => ({
  ...toOrderHeader(header, timeZone),
  lines: lines.map((line) => toLine(header.order_id, line))
})

/** An order as `GET /orders/:id` shows it. */
export const toOrder = ({ header, lines, units }: StoredOrder, timeZone: string): Order => ({
  ...toOrderHeader(header, timeZone),
  lines: lines.map((line) => toLine(header.order_id, line)),
  shipping_units: units === undefined ? [] : toShippingUnits(units)
})
