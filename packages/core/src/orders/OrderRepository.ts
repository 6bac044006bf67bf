/**
 * The store port for orders and their lines. Rows are plain structs: lists of orders are a hot
 * path, so the store hands them over without decoding them into classes.
 */
import { Context, type Effect, type Option } from "effect"
import type { Owner, Scope } from "../shared/Tenancy.js"

/** An order header as stored, with the names of its customer and carrier joined in. */
export interface OrderRow {
  /** The store's key of the order; never shown. */
  readonly ref: number
  readonly order_id: string
  readonly client_id: string | null
  readonly order_date: string | null
  readonly status_id: number
  readonly customer_id: number | null
  readonly customer_name: string | null
  readonly customer_town: string | null
  readonly ship_by_date: string | null
  readonly carrier_name: string | null
  readonly ship_dock: string | null
  /** UTC ISO text. */
  readonly created_at: string
  readonly created_by: string
  readonly backorder_of: string | null
  /** The site a transfer order goes to; null on a customer order. */
  readonly to_site: string | null
}

/** An order line as stored. */
export interface OrderLineRow {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
  readonly qty_picked: number
  readonly qty_shipped: number
  readonly qty_backordered: number
}

/** A shipping unit of an order, as the order's record shows it. */
export interface OrderUnitRow {
  readonly id: number
  readonly sscc: string
  readonly unit_type: "Carton" | "Pallet"
  readonly parent_id: number | null
  readonly weight: number
  readonly tracking_number: string | null
}

/**
 * An order with its lines, ordered by line number, and, read as a single order (`find`,
 * `findMany`), its shipping units by id.
 */
export interface StoredOrder {
  readonly header: OrderRow
  readonly lines: ReadonlyArray<OrderLineRow>
  readonly units?: ReadonlyArray<OrderUnitRow> | undefined
}

/** The header fields a write may set. */
export interface OrderFields {
  readonly customer_id: number | null
  readonly order_date: string | null
  readonly ship_by_date: string | null
  readonly carrier_id: number | null
  readonly ship_dock: string | null
}

/** A new order header. */
export interface NewOrderRow extends OrderFields {
  readonly owner: Owner
  readonly order_id: string
  readonly to_site: string | null
  readonly status_id: number
  readonly created_at: string
  readonly created_by: string
}

/** A line to write. */
export interface OrderLineWrite {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
}

export class OrderRepository extends Context.Tag("@wms/core/OrderRepository")<OrderRepository, {
  /** The orders `scope` may see, oldest first; with their lines when `withLines`, else with none. */
  readonly list: (scope: Scope, withLines: boolean) => Effect.Effect<ReadonlyArray<StoredOrder>>
  /** The order `orderId` when `scope` may see it, with its shipping units. */
  readonly find: (scope: Scope, orderId: string) => Effect.Effect<Option.Option<StoredOrder>>
  /** The orders with these record ids, with their lines and shipping units, in id order; for events about many orders. */
  readonly findMany: (refs: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<StoredOrder>>
  /** Inserts the order; none when its id is taken on the site. Yields its key. */
  readonly insert: (order: NewOrderRow) => Effect.Effect<Option.Option<number>>
  /** Sets the given header fields; false when the order is gone. */
  readonly update: (ref: number, changes: Partial<OrderFields>) => Effect.Effect<boolean>
  /**
   * Locks the order for the rest of the transaction and yields its current status; none when it is
   * gone. Writers of one order queue on this lock, so a status change cannot slip in between.
   */
  readonly lock: (ref: number) => Effect.Effect<Option.Option<number>>
  /** Removes the order and all its lines. */
  readonly remove: (ref: number) => Effect.Effect<void>
  /** The line numbers in use on the order. */
  readonly lineNumbers: (ref: number) => Effect.Effect<ReadonlyArray<number>>
  /** Inserts lines whose numbers are free; yields the numbers that turned out to be taken already. */
  readonly insertLines: (ref: number, lines: ReadonlyArray<OrderLineWrite>) => Effect.Effect<ReadonlyArray<number>>
  /** Sets a line's SKU and quantity; false when there is no such line. */
  readonly updateLine: (ref: number, line: OrderLineWrite) => Effect.Effect<boolean>
  /** Removes a line; false when there is no such line. */
  readonly removeLine: (ref: number, line: number) => Effect.Effect<boolean>
  /** Whether the customer exists and `scope` may see it. */
  readonly customerVisible: (scope: Scope, customerId: number) => Effect.Effect<boolean>
  /** Whether the carrier exists on the scope's site. */
  readonly carrierVisible: (scope: Scope, carrierId: number) => Effect.Effect<boolean>
  /** Those of `skuIds` that exist and `scope` may see. */
  readonly visibleSkus: (scope: Scope, skuIds: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
}>() {}
