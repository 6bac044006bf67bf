import { HttpApiBuilder } from "@effect/platform"
import { type Actor, type ListWindow, type NewOrder, Orders, windowOf } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

/**
 * The handlers of the three hottest routes, also run by their node:http front (`HotRoutes`), so
 * both ways of serving them answer alike. They take the caller as an argument: the front has it
 * at hand, and providing it as `CurrentActor` (`Effect.provideService`) cost the front about a
 * fifth of a `GET /orders/:id`.
 */
export const hotOrderHandlers = (orders: Orders) => ({
  listOrders: (actor: Actor, { urlParams }: { readonly urlParams: ListWindow & { readonly lines?: string | undefined } }) =>
    Effect.map(orders.list(actor, { lines: urlParams.lines !== "false" }), (items) => windowOf(items, urlParams)),
  createOrder: (actor: Actor, { payload }: { readonly payload: NewOrder }) => orders.create(actor, payload),
  getOrder: (actor: Actor, { path }: { readonly path: { readonly id: string } }) => orders.get(actor, path.id)
})

/** A hot handler as the `HttpApi` runs it, with the caller its security middleware provides. */
const withCaller = <I, A, E>(handler: (actor: Actor, input: I) => Effect.Effect<A, E>) => (input: I) =>
  Effect.flatMap(CurrentActor, (actor) => handler(actor, input))

export const OrdersHandlers = HttpApiBuilder.group(WarehouseApi, "orders", (handlers) =>
  Effect.gen(function*() {
    const orders = yield* Orders
    const hot = hotOrderHandlers(orders)
    return handlers
      .handle("listOrders", withCaller(hot.listOrders))
      .handle("createOrder", withCaller(hot.createOrder))
      .handle("getOrder", withCaller(hot.getOrder))
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
