/**
 * The store port for customer returns (spec §2). A return is created under the lock of its order,
 * then of the order lines it returns (R2); a receipt, close or cancel runs under the return's lock.
 */
import { Context, type Effect, type Option } from "effect"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"

/** A line of a stored return. */
export interface ReturnLineRow {
  readonly line: number
  readonly order_line: number
  readonly sku_id: string
  readonly qty_authorized: number
  readonly qty_received: number
  readonly qty_restocked: number
  readonly qty_quarantined: number
  readonly qty_scrapped: number
}

/** A return as stored, with its order's id and its lines by line number. */
export interface ReturnRow {
  /** The store's key of the return; never shown. */
  readonly ref: number
  readonly site_id: string
  readonly client_id: string | null
  readonly return_id: string
  readonly order_ref: number
  readonly order_id: string
  readonly customer_id: number | null
  readonly reason_code: string
  readonly notes: string | null
  readonly status_id: number
  /** UTC ISO text. */
  readonly created_at: string
  readonly created_by: string
  readonly lines: ReadonlyArray<ReturnLineRow>
}

/** A return to insert; it starts Open with nothing received. */
export interface NewReturnRow {
  readonly owner: Owner
  readonly return_id: string
  readonly order_ref: number
  readonly customer_id: number | null
  readonly reason_code: string
  readonly notes: string | null
  readonly created_at: string
  readonly created_by: string
  readonly lines: ReadonlyArray<{
    readonly line: number
    readonly order_line: number
    readonly sku_id: string
    readonly qty_authorized: number
  }>
}

/** An order line as a return sees it: what shipped, and what the returns that are not Cancelled authorize. */
export interface ReturnableLine {
  readonly line: number
  readonly sku_id: string
  readonly qty_shipped: number
  readonly qty_authorized: number
}

/** What a receipt adds to a return line, by disposition. */
export interface ReceivedQuantities {
  readonly restocked: number
  readonly quarantined: number
  readonly scrapped: number
}

/** The filters of `GET /returns`. */
export interface ReturnFilter {
  readonly order_id?: string | undefined
  readonly status_id?: number | undefined
  readonly customer_id?: number | undefined
}

export class ReturnRepository extends Context.Tag("@wms/core/ReturnRepository")<ReturnRepository, {
  /** The returns `scope` may see, by creation. */
  readonly list: (scope: Scope, filter: ReturnFilter, window: ListWindow) => Effect.Effect<ReadonlyArray<ReturnRow>>
  /** The return when `scope` may see it. */
  readonly find: (scope: Scope, returnId: string) => Effect.Effect<Option.Option<ReturnRow>>
  /** The return when `scope` may see it, locked against other writers until the transaction ends. */
  readonly lock: (scope: Scope, returnId: string) => Effect.Effect<Option.Option<ReturnRow>>
  /**
   * Locks the order's lines of these numbers, in line order, for the rest of the transaction, and
   * yields those that exist with what the order's returns that are not Cancelled authorize of them.
   */
  readonly lockLines: (orderRef: number, lines: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<ReturnableLine>>
  /** The expiry dates (null: none) of the contents the order line's shipped picks came from, distinct. */
  readonly shippedExpiries: (orderRef: number, orderLine: number) => Effect.Effect<ReadonlyArray<string | null>>
  /** The next number of the site's return counter, from 1; never the same twice. */
  readonly nextNumber: (siteId: string) => Effect.Effect<number>
  /** Inserts the return with its lines; none when its id is taken on the site. Yields its key. */
  readonly insert: (row: NewReturnRow) => Effect.Effect<Option.Option<number>>
  /** Raises the received quantities of a line. */
  readonly addReceived: (ref: number, line: number, quantities: ReceivedQuantities) => Effect.Effect<void>
  readonly setStatus: (ref: number, statusId: number) => Effect.Effect<void>
  /** Lowers every line's `qty_authorized` to what it received: the rest is no longer authorized. */
  readonly authorizeReceived: (ref: number) => Effect.Effect<void>
}>() {}
