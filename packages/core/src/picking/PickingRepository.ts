/**
 * The store port for picking and shipping. A pick task is its claim's row (migration 0020): the
 * task id is the claim id, and a task is open exactly while its claim is `allocated`.
 */
import { Context, type Effect, type Option } from "effect"
import type { StatusId } from "../shared/Status.js"
import type { Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { ClaimRow } from "../waves/WaveRepository.js"

/** The filters of `GET /tasks`. */
export interface TaskFilter {
  readonly wave_id?: number | undefined
  readonly sku_id?: string | undefined
}

/** How many open tasks are left of a claim's order, claimset and wave; how many claims of the order are picked. */
export interface OpenTaskCounts {
  readonly order: number
  readonly orderPicked: number
  readonly claimset: number
  readonly wave: number
}

export class PickingRepository extends Context.Tag("@wms/core/PickingRepository")<PickingRepository, {
  /** The open tasks `scope` may see, by id. */
  readonly openTasks: (scope: Scope, filter: TaskFilter, window: ListWindow) => Effect.Effect<ReadonlyArray<ClaimRow>>
  /** The open task when `scope` may see it, not locked. */
  readonly findOpenTask: (scope: Scope, taskId: number) => Effect.Effect<Option.Option<ClaimRow>>
  /** Locks the wave until the transaction ends; its status, none when it is gone. */
  readonly lockWave: (waveId: number) => Effect.Effect<Option.Option<StatusId>>
  /** The task, locked, while it is still open; none once another transaction closed it. */
  readonly lockOpenTask: (taskId: number) => Effect.Effect<Option.Option<ClaimRow>>
  /**
   * Closes an open task: its claim becomes `picked` holding `picked`, or, when nothing was
   * picked, is removed (with its claimset when that holds no claim any more). False when the task
   * was not open, so two confirmations can never both close it.
   */
  readonly closeTask: (taskId: number, picked: number) => Effect.Effect<boolean>
  /**
   * Takes `qty` off a content's stock and its allocation together, guarded by the stock rule: it
   * dies when the content does not hold that much allocation, which the caller's locks make impossible.
   */
  readonly takeAllocated: (contentId: number, qty: number) => Effect.Effect<void>
  /** Raises `qty_picked` of an order line. */
  readonly addPicked: (orderRef: number, line: number, qty: number) => Effect.Effect<void>
  readonly openTaskCounts: (of: {
    readonly orderRef: number
    readonly claimsetId: number
    readonly waveId: number
  }) => Effect.Effect<OpenTaskCounts>
  readonly setClaimsetStatus: (claimsetId: number, status: "released" | "picked") => Effect.Effect<void>
  /** How many open tasks an order has. */
  readonly openTasksOfOrder: (orderRef: number) => Effect.Effect<number>
  /** The picked claims of an order, by id. */
  readonly pickedClaims: (orderRef: number) => Effect.Effect<ReadonlyArray<ClaimRow>>
  /** Sets `qty_shipped` to `qty_picked` on every line of the order. */
  readonly shipLines: (orderRef: number) => Effect.Effect<void>
  /** Raises `qty_backordered` of an order line. */
  readonly addBackordered: (orderRef: number, line: number, qty: number) => Effect.Effect<void>
  /** Sets `qty_backordered` to 0 on every line of the order. */
  readonly clearBackordered: (orderRef: number) => Effect.Effect<void>
  /** How many orders of the site are backorders of `orderId`. */
  readonly backorderCount: (siteId: string, orderId: string) => Effect.Effect<number>
  /**
   * Inserts a Released copy of the order's header (owner, customer or destination, carrier, dock and dates) as
   * `backorder.order_id` with a line of `qty_backordered` for every line that has some; none when
   * that id is taken on the site. Yields the new order's key.
   */
  readonly insertBackorder: (orderRef: number, backorder: {
    readonly order_id: string
    readonly backorder_of: string
    readonly created_at: string
    readonly created_by: string
  }) => Effect.Effect<Option.Option<number>>
}>() {}
