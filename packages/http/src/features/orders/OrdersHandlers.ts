import { inWindow, Orders } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { OrdersApi } from "./OrdersApi.js"

export const OrdersTable = Effect.map(Orders, (orders) => ({
  listOrders: (actor, { urlParams }) => inWindow(orders.list(actor, { lines: urlParams.lines !== "false" }), urlParams),
  createOrder: (actor, { payload }) => orders.create(actor, payload),
  getOrder: (actor, { path }) => orders.get(actor, path.id),
  updateOrder: (actor, { path, payload }) => orders.update(actor, path.id, payload),
  deleteOrder: (actor, { path }) => orders.remove(actor, path.id),
  listOrderLines: (actor, { path, urlParams }) => inWindow(orders.listLines(actor, path.id), urlParams),
  addOrderLines: (actor, { path, payload }) => orders.addLines(actor, path.id, payload),
  getOrderLine: (actor, { path }) => orders.getLine(actor, path.id, path.line_id),
  updateOrderLine: (actor, { path, payload }) => orders.updateLine(actor, path.id, path.line_id, payload),
  deleteOrderLine: (actor, { path }) => orders.removeLine(actor, path.id, path.line_id)
} satisfies Table<typeof OrdersApi>))
