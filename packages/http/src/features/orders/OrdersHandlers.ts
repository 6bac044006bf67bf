import { inWindow, Orders } from "@wms/core"
import type { NewOrder, NewOrderLine, OrderLineUpdate, OrderUpdate } from "@wms/core"
import { Effect } from "effect"
import { type Body, byLine, byText, everything } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { OrdersApi } from "./OrdersApi.js"

export const OrdersTable = Effect.map(Orders, (orders) => ({
  listOrders: (actor, { urlParams }) =>
    inWindow(orders.listOrders(actor, { lines: urlParams.lines !== "false" }), urlParams),
  createOrder: (actor, { payload }) => orders.createOrder(actor, payload),
  getOrder: (actor, { path }) => orders.getOrder(actor, path.id),
  updateOrder: (actor, { path, payload }) => orders.updateOrder(actor, path.id, payload),
  deleteOrder: (actor, { path }) => orders.deleteOrder(actor, path.id),
  listOrderLines: (actor, { path, urlParams }) => inWindow(orders.listOrderLines(actor, path.id), urlParams),
  addOrderLines: (actor, { path, payload }) => orders.addOrderLines(actor, path.id, payload),
  getOrderLine: (actor, { path }) => orders.getOrderLine(actor, path.id, path.line_id),
  updateOrderLine: (actor, { path, payload }) => orders.updateOrderLine(actor, path.id, path.line_id, payload),
  deleteOrderLine: (actor, { path }) => orders.deleteOrderLine(actor, path.id, path.line_id)
} satisfies Table<typeof OrdersApi>))

/** The facade's methods of `orders`: how each one's arguments make its endpoint's input. */
export const OrdersMethods = {
  /** The scope's orders; `{ lines: false }` leaves the lines out. */
  listOrders: (options: { readonly lines?: boolean } = {}) => ({
    urlParams: options.lines === false ? { lines: "false" as const } : {}
  }),
  getOrder: byText,
  createOrder: (payload: Body<typeof NewOrder>) => ({ payload }),
  updateOrder: (id: string, payload: Body<typeof OrderUpdate>) => ({ ...byText(id), payload }),
  deleteOrder: byText,
  listOrderLines: (id: string) => ({ ...byText(id), ...everything() }),
  getOrderLine: byLine,
  /** Adds one line or an array of lines; a line without `line` gets the next number. */
  addOrderLines: (id: string, payload: Body<typeof NewOrderLine> | ReadonlyArray<Body<typeof NewOrderLine>>) => ({
    ...byText(id),
    payload
  }),
  updateOrderLine: (id: string, line: number, payload: Body<typeof OrderLineUpdate>) => ({
    ...byLine(id, line),
    payload
  }),
  deleteOrderLine: byLine
} satisfies Methods<typeof OrdersApi>

export const OrdersHandlers = { table: OrdersTable, methods: OrdersMethods }
