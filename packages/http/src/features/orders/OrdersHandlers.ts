import { inWindow, Orders } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
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
