/**
 * The store port for movement tasks.
 */
import { Context, type Effect, type Option } from "effect"
import type { Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { MovementTaskFilter, NewMovementTask, StoredMovementTask } from "./MovementTask.js"

export class MovementTaskRepository extends Context.Tag("@wms/core/MovementTaskRepository")<MovementTaskRepository, {
  /** The tasks `scope` may see that pass the filter, by id. */
  readonly list: (
    scope: Scope,
    filter: MovementTaskFilter,
    window: ListWindow
  ) => Effect.Effect<ReadonlyArray<StoredMovementTask>>
  /** The task when `scope` may see it, locked until the transaction ends when `lock` is true. */
  readonly find: (scope: Scope, taskId: number, lock: boolean) => Effect.Effect<Option.Option<StoredMovementTask>>
  /** Inserts tasks, in their order, and returns their ids in that order. */
  readonly insert: (tasks: ReadonlyArray<NewMovementTask>) => Effect.Effect<ReadonlyArray<number>>
  /**
   * Completes the Open task `scope` sees, where it was planned to go, and answers it as it now is;
   * none when `scope` does not see it or it is not Open. Its row stays locked until the transaction
   * ends: a confirm completes first and checks after, in one statement where a locking find and a
   * close were two (a check that fails rolls the completion back with the rest).
   */
  readonly complete: (scope: Scope, taskId: number) => Effect.Effect<Option.Option<StoredMovementTask>>
  /** Sets where a task's stock went (`to_loc_id` and `final_loc_id`): a confirm to another destination. */
  readonly redirect: (taskId: number, toLocId: string) => Effect.Effect<void>
  /**
   * Closes an Open task as Complete (with where the stock went) or Cancelled; false when it was not
   * Open, so two closings can never both succeed.
   */
  readonly close: (
    taskId: number,
    closing: { readonly status_id: 20 | 21; readonly to_loc_id: string; readonly final_loc_id: string }
  ) => Effect.Effect<boolean>
}>() {}
