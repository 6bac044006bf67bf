import { HttpApiBuilder } from "@effect/platform"
import { type ListWindow, type NewOrder, Orders, windowOf } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

/**
 * The handlers of the three hottest routes, also run by their node:http front (`HotRoutes`), so
 * both ways of serving them answer alike.
 */
export const hotOrderHandlers = (orders: Orders) => ({
  listOrders: ({ urlParams }: { readonly urlParams: ListWindow & { readonly lines?: string | undefined } }) =>
    Effect.flatMap(CurrentActor, (actor) =>
      Effect.map(orders.list(actor, { lines: urlParams.lines !== "false" }), (items) => windowOf(items, urlParams))),
  createOrder: ({ payload }: { readonly payload: NewOrder }) =>
    Effect.flatMap(CurrentActor, (actor) => orders.create(actor, payload)),
  getOrder: ({ path }: { readonly path: { readonly id: string } }) =>
    Effect.flatMap(CurrentActor, (actor) => orders.get(actor, path.id))
})

export const OrdersHandlers = HttpApiBuilder.group(WarehouseApi, "orders", (handlers) =>
  Effect.gen(function*() {
    const orders = yield* Orders
    const hot = hotOrderHandlers(orders)
    return handlers
      .handle("listOrders", hot.listOrders)
      .handle("createOrder", hot.createOrder)
      .handle("getOrder", hot.getOrder)
      .handle("updateOrder", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => orders.update(actor, path.id, payload)))
      .handle("deleteOrder", ({ path }) => Effect.flatMap(CurrentActor, (actor) => orders.remove(actor, path.id)))
      .handle("listOrderLines", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(orders.listLines(actor, path.id), (items) => windowOf(items, urlParams))))
      .handle("addOrderLines", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => orders.addLines(actor, path.id, payload)))
      .handle("getOrderLine", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => orders.getLine(actor, path.id, path.line_id)))
      .handle("updateOrderLine", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => orders.updateLine(actor, path.id, path.line_id, payload)))
      .handle("deleteOrderLine", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => orders.removeLine(actor, path.id, path.line_id)))
  }))
