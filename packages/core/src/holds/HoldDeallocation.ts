/**
 * The port through which a hold created with `deallocate: true` (spec §1 H2) cancels the work on
 * the stock it covers: the open pick tasks, as a short pick of the whole task would (re-allocated
 * or backordered by the site settings) but with nothing lost, and the open movement tasks from it
 * (`Untask`). Picking provides it (`HoldDeallocationLive`), which knows how a pick task closes.
 */
import { Context, type Effect } from "effect"
import type { StoredMovementTask } from "../movement/MovementTask.js"
import type { Actor } from "../shared/Tenancy.js"
import type { Content } from "../stock/InventoryRepository.js"
import type { ClaimRow } from "../waves/WaveRepository.js"
import type { HoldScope } from "./Hold.js"

/** The open pick tasks (claims) and movement tasks on some stock, as `prepare` locked them. */
export interface OpenWork {
  readonly claims: ReadonlyArray<ClaimRow>
  readonly tasks: ReadonlyArray<StoredMovementTask>
}

export class HoldDeallocation extends Context.Tag("@wms/core/HoldDeallocation")<HoldDeallocation, {
  /**
   * Locks the open pick tasks on the stock the scope covers now (their waves, orders, then the
   * claims) and the open movement tasks from it, in the lock order, before the holds lock and the
   * contents; yields them.
   */
  readonly prepare: (siteId: string, scope: HoldScope) => Effect.Effect<OpenWork>
  /**
   * Under the holds lock, with `covered` (the contents the new hold covers) locked: cancels every
   * open pick task and movement task on them, those `prepare` locked and any made since.
   */
  readonly deallocate: (
    actor: Actor,
    prepared: OpenWork,
    covered: ReadonlyArray<Content>,
    holdId: number,
    createdAt: string
  ) => Effect.Effect<void>
}>() {}
