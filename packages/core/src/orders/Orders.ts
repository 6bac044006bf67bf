/**
 * Outbound orders and their lines (API §2.2, §4.2; DECISIONS §4): the `Orders` service holding
 * every rule about them.
 */
import { Clock, Effect, Either, Option } from "effect"
import { SiteRepository } from "../admin/SiteRepository.js"
import { invalidField } from "../shared/Errors.js"
import { TimeZone } from "../shared/Formats.js"
import { Status } from "../shared/Status.js"
import { type Actor, ownerOf, requireAdmin } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import {
  OrderExists,
  OrderLineExists,
  OrderLineNotFound,
  OrderLineNumbersExhausted,
  OrderNotDeletable,
  OrderNotFound,
  OrderNotReleased
} from "./Errors.js"
import { assignLineNumbers } from "./LineNumbering.js"
import type { NewOrder, NewOrderLine, OrderLineUpdate, OrderListItem, OrderUpdate } from "./Order.js"
import { OrderAllocations } from "./OrderAllocations.js"
import { type OrderFields, type OrderLineWrite, OrderRepository, type OrderRow } from "./OrderRepository.js"
import { describeStatus, toOrder, toOrderHeader, toOrderListItem } from "./OrderView.js"
import { checkDestinationSkus, checkTransferOrder } from "./TransferOrder.js"

// A dock of "" is no dock: an absent value is null, never "".
const dock = (value: string | null) => (value === null || value.trim() === "" ? null : value)

export class Orders extends Effect.Service<Orders>()("@wms/core/Orders", {
  effect: Effect.gen(function*() {
    const orders = yield* OrderRepository
    const allocations = yield* OrderAllocations
    const sites = yield* SiteRepository
    const { atomically } = yield* Transactor

    // The transfer rules read the sites and the destination's SKUs through the ports of this service.
    const provided = <A, E>(check: Effect.Effect<A, E, OrderRepository | SiteRepository>) =>
      check.pipe(Effect.provideService(OrderRepository, orders), Effect.provideService(SiteRepository, sites))

    /** A transfer order's lines must name SKUs its destination has (spec §3 T1). */
    const checkTransferLines = (header: OrderRow, lines: ReadonlyArray<{ readonly sku_id: string }>) =>
      header.to_site === null ? Effect.void : provided(checkDestinationSkus(header.to_site, lines))

    const findOrder = (actor: Actor, orderId: string) =>
      Effect.flatMap(
        orders.find(actor.scope, orderId),
        Option.match({ onNone: () => Effect.fail(new OrderNotFound({ orderId })), onSome: Effect.succeed })
      )

    const checkReferences = Effect.fnUntraced(function*(
      actor: Actor,
      fields: { readonly customer_id?: number | null; readonly carrier_id?: number | null }
    ) {
      if (typeof fields.customer_id === "number" && !(yield* orders.customerVisible(actor.scope, fields.customer_id))) {
        return yield* invalidField("customer_id", `customer ${fields.customer_id} does not exist`)
      }
      if (typeof fields.carrier_id === "number" && !(yield* orders.carrierVisible(actor.scope, fields.carrier_id))) {
        return yield* invalidField("carrier_id", `carrier ${fields.carrier_id} does not exist`)
      }
    })

    // `pathOf(i)` is the field path of line i's sku_id, as the body shapes it.
    const checkSkus = Effect.fnUntraced(function*(
      actor: Actor,
      lines: ReadonlyArray<{ readonly sku_id: string }>,
      pathOf: (index: number) => string
    ) {
      if (lines.length === 0) return
      const visible = yield* orders.visibleSkus(actor.scope, [...new Set(lines.map((line) => line.sku_id))])
      const missing = lines.findIndex((line) => !visible.has(line.sku_id))
      if (missing >= 0) return yield* invalidField(pathOf(missing), `sku ${lines[missing].sku_id} does not exist`)
    })

    const requireReleased = Effect.fnUntraced(function*(header: OrderRow, action: string) {
      const status = yield* orders.lock(header.ref)
      if (Option.isNone(status)) return yield* new OrderNotFound({ orderId: header.order_id })
      if (status.value !== Status.Released) {
        return yield* new OrderNotReleased({ orderId: header.order_id, status: describeStatus(status.value), action })
      }
    })

    const numberLines = (orderId: string, existing: ReadonlyArray<number>, lines: ReadonlyArray<NewOrderLine>) =>
      Either.match(assignLineNumbers(existing, lines.map((line) => line.line)), {
        onLeft: (failure) =>
          Effect.fail(
            failure._tag === "DuplicateLine"
              ? new OrderLineExists({ orderId, line: failure.line })
              : new OrderLineNumbersExhausted({ orderId })
          ),
        onRight: (numbers) =>
          Effect.succeed(lines.map((line, i) => ({ line: numbers[i], sku_id: line.sku_id, qty: line.qty })))
      })

    const insertLines = Effect.fnUntraced(function*(
      ref: number,
      orderId: string,
      lines: ReadonlyArray<OrderLineWrite>
    ) {
      if (lines.length === 0) return
      // The lock makes this rare, but a number taken meanwhile is still a 409, never a 500.
      const taken = yield* orders.insertLines(ref, lines)
      if (taken.length > 0) return yield* new OrderLineExists({ orderId, line: taken[0] })
    })

    const list = Effect.fnUntraced(function*(actor: Actor, options: { readonly lines: boolean }) {
      const timeZone = yield* TimeZone
      const stored = yield* orders.list(actor.scope, options.lines)
      return options.lines
        ? stored.map((order): OrderListItem => toOrderListItem(order, timeZone))
        : stored.map((order): OrderListItem => toOrderHeader(order.header, timeZone))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, orderId: string) {
      return toOrder(yield* findOrder(actor, orderId), yield* TimeZone)
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewOrder) {
      const newLines = input.lines ?? []
      const toSite = input.to_site ?? null
      // Only an admin makes a transfer (spec §3 T1); its own checks follow those of any order.
      if (toSite !== null) yield* requireAdmin(actor)
      yield* checkReferences(actor, input)
      yield* checkSkus(actor, newLines, (i) => `lines.${i}.sku_id`)
      if (toSite !== null) yield* provided(checkTransferOrder(actor, { ...input, to_site: toSite, lines: newLines }))
      const lines = yield* numberLines(input.order_id, [], newLines)
      const ref = yield* orders.insert({
        owner: ownerOf(actor.scope),
        order_id: input.order_id,
        status_id: Status.Released,
        customer_id: input.customer_id ?? null,
        order_date: input.order_date ?? null,
        ship_by_date: input.ship_by_date ?? null,
        carrier_id: input.carrier_id ?? null,
        ship_dock: dock(input.ship_dock ?? null),
        created_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
        created_by: actor.userId,
        to_site: toSite
      })
      if (Option.isNone(ref)) return yield* new OrderExists({ orderId: input.order_id })
      yield* insertLines(ref.value, input.order_id, lines)
    }, atomically)

    const update = Effect.fnUntraced(function*(actor: Actor, orderId: string, input: OrderUpdate) {
      yield* checkReferences(actor, input)
      const { header } = yield* findOrder(actor, orderId)
      if (header.to_site !== null && typeof input.customer_id === "number") {
        return yield* invalidField(
          "customer_id",
          `order ${orderId} is a transfer to site ${header.to_site}: it has no customer`
        )
      }
      const changes: { -readonly [K in keyof OrderFields]?: OrderFields[K] } = {}
      if (input.customer_id !== undefined) changes.customer_id = input.customer_id
      if (input.order_date !== undefined) changes.order_date = input.order_date
      if (input.ship_by_date !== undefined) changes.ship_by_date = input.ship_by_date
      if (input.carrier_id !== undefined) changes.carrier_id = input.carrier_id
      if (input.ship_dock !== undefined) changes.ship_dock = dock(input.ship_dock)
      if (!(yield* orders.update(header.ref, changes))) return yield* new OrderNotFound({ orderId })
    }, atomically)

    // An allocated order gives its stock back first; once picking has started it stays.
    const remove = Effect.fnUntraced(function*(actor: Actor, orderId: string) {
      const { header } = yield* findOrder(actor, orderId)
      const status = yield* orders.lock(header.ref)
      if (Option.isNone(status)) return yield* new OrderNotFound({ orderId })
      if (status.value === Status.Allocated || status.value === Status.PartiallyAllocated) {
        yield* allocations.release(orderId, header.ref)
      } else if (status.value !== Status.Released) {
        return yield* new OrderNotDeletable({ orderId, status: describeStatus(status.value) })
      }
      yield* orders.remove(header.ref)
    }, atomically)

    const listLines = Effect.fnUntraced(function*(actor: Actor, orderId: string) {
      return (yield* get(actor, orderId)).lines
    })

    const getLine = Effect.fnUntraced(function*(actor: Actor, orderId: string, line: number) {
      const found = (yield* get(actor, orderId)).lines.find((_) => _.line === line)
      if (found === undefined) return yield* new OrderLineNotFound({ orderId, line })
      return found
    })

    const addLines = Effect.fnUntraced(function*(
      actor: Actor,
      orderId: string,
      input: NewOrderLine | ReadonlyArray<NewOrderLine>
    ) {
      const lines: ReadonlyArray<NewOrderLine> = Array.isArray(input) ? input : [input as NewOrderLine]
      yield* checkSkus(actor, lines, (i) => (Array.isArray(input) ? `${i}.sku_id` : "sku_id"))
      const { header } = yield* findOrder(actor, orderId)
      yield* checkTransferLines(header, lines)
      yield* requireReleased(header, "its lines can change")
      const numbered = yield* numberLines(orderId, yield* orders.lineNumbers(header.ref), lines)
      yield* insertLines(header.ref, orderId, numbered)
    }, atomically)

    const updateLine = Effect.fnUntraced(function*(
      actor: Actor,
      orderId: string,
      line: number,
      input: OrderLineUpdate
    ) {
      yield* checkSkus(actor, [input], () => "sku_id")
      const { header, lines } = yield* findOrder(actor, orderId)
      if (!lines.some((_) => _.line === line)) return yield* new OrderLineNotFound({ orderId, line })
      yield* checkTransferLines(header, [input])
      yield* requireReleased(header, "its lines can change")
      if (!(yield* orders.updateLine(header.ref, { line, sku_id: input.sku_id, qty: input.qty }))) {
        return yield* new OrderLineNotFound({ orderId, line })
      }
    }, atomically)

    const removeLine = Effect.fnUntraced(function*(actor: Actor, orderId: string, line: number) {
      const { header, lines } = yield* findOrder(actor, orderId)
      if (!lines.some((_) => _.line === line)) return yield* new OrderLineNotFound({ orderId, line })
      yield* requireReleased(header, "its lines can change")
      if (!(yield* orders.removeLine(header.ref, line))) return yield* new OrderLineNotFound({ orderId, line })
    }, atomically)

    return {
      listOrders: list,
      getOrder: get,
      createOrder: create,
      updateOrder: update,
      deleteOrder: remove,
      listOrderLines: listLines,
      getOrderLine: getLine,
      addOrderLines: addLines,
      updateOrderLine: updateLine,
      deleteOrderLine: removeLine,
      /** @deprecated Use `listOrders`. */
      list,
      /** @deprecated Use `getOrder`. */
      get,
      /** @deprecated Use `createOrder`. */
      create,
      /** @deprecated Use `updateOrder`. */
      update,
      /** @deprecated Use `deleteOrder`. */
      remove,
      /** @deprecated Use `listOrderLines`. */
      listLines,
      /** @deprecated Use `getOrderLine`. */
      getLine,
      /** @deprecated Use `addOrderLines`. */
      addLines,
      /** @deprecated Use `updateOrderLine`. */
      updateLine,
      /** @deprecated Use `deleteOrderLine`. */
      removeLine
    } as const
  })
}) {}
