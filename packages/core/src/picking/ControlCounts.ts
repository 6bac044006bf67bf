/**
 * The port through which a short pick opens the control count of the location it was short at.
 * Picking declares it and the counts implement it (`counts/ControlCountsLive.ts`), so that picking
 * knows nothing of counts, which sit above it: applying a count gives back claims and moves
 * picking on.
 */
import { Context, type Effect } from "effect"
import type { Actor } from "../shared/Tenancy.js"

export class ControlCounts extends Context.Tag("@wms/core/ControlCounts")<ControlCounts, {
  /**
   * Opens a count of every SKU at the managed location `locId`, for `reason`, in the caller's
   * transaction; nothing when the location has a count that is not over.
   */
  readonly open: (actor: Actor, locId: string, reason: string, createdAt: string) => Effect.Effect<void>
}>() {}
