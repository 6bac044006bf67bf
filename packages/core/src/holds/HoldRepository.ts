/**
 * The store port for holds (spec §1). A SKU, lot or location hold covers whatever stock matches its
 * scope, now and later, so the store matches it at every read; a content hold covers the list of
 * contents the store keeps for it (the content, and those a movement from it filled).
 */
import { Context, type Effect, type Option } from "effect"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { Content } from "../stock/InventoryRepository.js"
import type { HoldScope, HoldStatusId } from "./Hold.js"
import type { OpenWork } from "./HoldDeallocation.js"
import type { Lot, TraceReceivedType, TraceShippedType } from "./Trace.js"

/**
 * A ledger row of a lot's history that a trace shows: what came in (`Receipt`, `Return`,
 * `TransferIn`) and what went out (`Shipment`, `TransferOut`), as the ledger wrote it.
 */
export interface LotMovement {
  readonly transaction_type: TraceReceivedType | TraceShippedType
  readonly created_at: string
  readonly content_id: number
  readonly qty: number
  readonly order_id: string | null
  readonly line_id: number | null
  readonly notes: string | null
  /** The customer of the order a row going out served; null for a row coming in, or an order without one. */
  readonly customer_id: number | null
  /** The site a `TransferOut`'s order went to; null on every other row. */
  readonly to_site: string | null
}

/** A hold as the store keeps it, with what it covers now; instants are UTC ISO text. */
export interface StoredHold extends Omit<HoldScope, "client_id">, Owner {
  readonly id: number
  readonly reason_code: string
  readonly notes: string | null
  readonly status_id: HoldStatusId
  readonly deallocate: boolean
  readonly created_by: string
  readonly created_at: string
  readonly released_by: string | null
  readonly released_at: string | null
  readonly release_notes: string | null
  /** The sum of `qty` of the contents it covers now; 0 once released. */
  readonly qty_covered: number
}

/** A hold to insert: Active, released by nobody. */
export type NewStoredHold = Omit<
  StoredHold,
  "id" | "status_id" | "released_by" | "released_at" | "release_notes" | "qty_covered"
>

/** The filters of `GET /holds`. */
export interface HoldFilter {
  readonly status_id: number
  readonly sku_id?: string | undefined
  readonly loc_id?: string | undefined
  readonly reason_code?: string | undefined
}

export class HoldRepository extends Context.Tag("@wms/core/HoldRepository")<HoldRepository, {
  /** The holds `scope` may see that pass the filter, by id. */
  readonly list: (scope: Scope, filter: HoldFilter, window: ListWindow) => Effect.Effect<ReadonlyArray<StoredHold>>
  /** The hold when `scope` may see it, locked until the transaction ends when `lock` is true. */
  readonly find: (scope: Scope, holdId: number, lock: boolean) => Effect.Effect<Option.Option<StoredHold>>
  /** Inserts an Active hold and yields its id. */
  readonly insert: (hold: NewStoredHold) => Effect.Effect<number>
  /** Adds contents to the list a content hold covers (a content listed already stays once). */
  readonly coverContents: (holdId: number, contentIds: ReadonlyArray<number>) => Effect.Effect<void>
  /**
   * Takes the site's holds lock until the transaction ends (PostgreSQL; SQLite has one writer):
   * `exclusive` by a hold's creation, shared by every reader of free stock (`WaveRepository.lockStock`,
   * replenishment's reserve), so a hold and an allocation of the same stock never interleave. It
   * comes after claims and movement tasks and before contents in the lock order.
   */
  readonly lockHoldsOf: (siteId: string) => Effect.Effect<void>
  /** The contents the Active hold covers now, with stock or not, by id; locked for update when `lock`. */
  readonly coveredContents: (holdId: number, lock: boolean) => Effect.Effect<ReadonlyArray<Content>>
  /**
   * The open pick tasks (claims) and the open movement tasks on the contents of the site that a
   * scope covers, or on the contents of these ids; not locked, each kind by id.
   */
  readonly openWork: (siteId: string, on: HoldScope | ReadonlyArray<number>) => Effect.Effect<OpenWork>
  /**
   * A lot's history in the scope: its `Receipt`, `Return`, `TransferIn`, `Shipment` and
   * `TransferOut` rows by id (of every content, empty or not), and its contents that
   * hold stock now, by id, each with whether an Active hold covers it.
   */
  readonly lotHistory: (scope: Scope, lot: Lot) => Effect.Effect<{
    readonly movements: ReadonlyArray<LotMovement>
    readonly contents: ReadonlyArray<Content & { readonly held: boolean }>
  }>
  /** Ends the hold, guarded on its being Active: false when it was not. */
  readonly release: (
    holdId: number,
    release: { readonly released_by: string; readonly released_at: string; readonly release_notes: string | null }
  ) => Effect.Effect<boolean>
}>() {}
