/**
 * The store port for waves: the waves themselves, their orders, and the claimsets and claims
 * (each claim carrying its pick task) that starting a wave writes.
 */
import { Context, type Effect, type Option } from "effect"
import type { StatusId } from "../shared/Status.js"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { StockToAllocate } from "../stock/Fefo.js"
import type { OrderToAllocate, ServingKey } from "./Allocation.js"
import type { CandidateOrder } from "./WaveSelection.js"

/** A wave as the store keeps it; `created_at` is a UTC ISO instant. */
export interface StoredWave extends Owner {
  readonly id: number
  readonly status_id: StatusId
  readonly criterium_id: number
  readonly value: string | null
  readonly pick_type: 1 | 2 | 3 | 4
  readonly autostart: boolean
  readonly created_at: string
  readonly created_by: string
}

export interface WaveTotals {
  readonly order_count: number
  readonly qty_ordered: number
  readonly qty_allocated: number
}

export interface WaveOrderRow {
  readonly order_id: string
  readonly order_date: string | null
  readonly status_id: StatusId
  readonly customer_name: string | null
  readonly customer_town: string | null
  readonly ship_by_date: string | null
  readonly carrier_name: string | null
  readonly ship_dock: string | null
}

export interface ClaimsetRow {
  readonly id: number
  readonly claimset_break: string
  readonly status: "released" | "picked"
  readonly pick_type: string
  readonly claim_count: number
  readonly total_qty: number
}

/** A claim with its pick task, as the store keeps it. */
export interface ClaimRow extends Owner {
  readonly id: number
  readonly wave_id: number
  readonly claimset_id: number
  readonly content_id: number
  readonly order_ref: number
  readonly order_id: string
  readonly line_id: number
  readonly sku_id: string
  readonly qty: number
  readonly status: "allocated" | "picked"
  readonly tag_id: string
  readonly from_loc_id: string
  readonly to_loc_id: string
  readonly final_loc_id: string
  readonly created_at: string
}

export class WaveRepository extends Context.Tag("@wms/core/WaveRepository")<WaveRepository, {
  readonly insert: (wave: Omit<StoredWave, "id">) => Effect.Effect<number>
  /** Released orders of the scope that are in no wave but Complete ones. */
  readonly candidateOrders: (scope: Scope) => Effect.Effect<ReadonlyArray<CandidateOrder>>
  readonly attachOrders: (waveId: number, orderRefs: ReadonlyArray<number>) => Effect.Effect<void>
  readonly list: (scope: Scope) => Effect.Effect<ReadonlyArray<StoredWave>>
  readonly find: (scope: Scope, waveId: number) => Effect.Effect<Option.Option<StoredWave>>
  /** The wave, locked against other writers until the transaction ends. */
  readonly lock: (scope: Scope, waveId: number) => Effect.Effect<Option.Option<StoredWave>>
  readonly totals: (waveId: number) => Effect.Effect<WaveTotals>
  readonly orders: (waveId: number) => Effect.Effect<ReadonlyArray<WaveOrderRow>>
  readonly claimsets: (waveId: number) => Effect.Effect<ReadonlyArray<ClaimsetRow>>
  readonly claims: (waveId: number) => Effect.Effect<ReadonlyArray<ClaimRow>>
  /** The wave's Released orders with their lines, locked, by order ref: all of them, or the first `limit`. */
  readonly ordersToAllocate: (waveId: number, limit?: number) => Effect.Effect<ReadonlyArray<OrderToAllocate>>
  /**
   * The serving keys of the wave's Released orders, locked, by order ref: the first `limit` of
   * those with a ref above `afterRef`. A large wave is planned from them.
   */
  readonly orderKeysToAllocate: (
    waveId: number,
    afterRef: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<ServingKey>>
  /** The SKUs the lines of the wave's Released orders ask for, each once. */
  readonly skusToAllocate: (waveId: number) => Effect.Effect<ReadonlyArray<string>>
  /** Those of `orderRefs` that are Released orders of the wave, with their lines, by order ref. */
  readonly ordersToAllocateAmong: (
    waveId: number,
    orderRefs: ReadonlyArray<number>
  ) => Effect.Effect<ReadonlyArray<OrderToAllocate>>
  /** Every content of these SKUs on the site, locked, by content id (so lockers never deadlock). */
  readonly lockStock: (siteId: string, skuIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StockToAllocate>>
  readonly defaultDock: (siteId: string) => Effect.Effect<string>
  /** Inserts the claimsets of a wave; their ids in the same order. */
  readonly insertClaimsets: (
    waveId: number,
    claimsets: ReadonlyArray<{ readonly claimset_break: string; readonly pick_type: string }>
  ) => Effect.Effect<ReadonlyArray<number>>
  readonly insertClaims: (claims: ReadonlyArray<Omit<ClaimRow, "id">>) => Effect.Effect<void>
  readonly setOrderStatuses: (statuses: ReadonlyMap<number, StatusId>) => Effect.Effect<void>
  readonly setStatus: (waveId: number, status: StatusId) => Effect.Effect<void>
  /** The claims of a wave or of an order, locked. */
  readonly lockClaims: (
    of: { readonly waveId: number } | { readonly orderRef: number }
  ) => Effect.Effect<ReadonlyArray<ClaimRow>>
  readonly deleteClaims: (claimIds: ReadonlyArray<number>) => Effect.Effect<void>
  /** Removes the wave with its claimsets and its list of orders (the orders themselves stay). */
  readonly remove: (waveId: number) => Effect.Effect<void>
}>() {}
