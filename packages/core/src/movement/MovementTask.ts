/**
 * Movement tasks (extension, warehouse cycle §3.2–3.3): stock to carry from one location to
 * another, by putaway from a receipt, an internal move, or a replenishment. A task reserves its
 * quantity on the source content (`qty_tasked_from`, a Task transaction) from creation until it is
 * confirmed (the stock moves: one Putaway, Move or Replenish transaction) or cancelled (Untask).
 * Movement tasks have their own ids, apart from pick tasks, whose id is their claim's.
 */
import { Schema } from "effect"
import { TextId, TextIdFromPath } from "../masterdata/MasterData.js"
import { Quantity, RecordId } from "../shared/Formats.js"
import { StoredText } from "../shared/Text.js"
import { ListWindow } from "../shared/Window.js"

export const MovementTaskTypes = ["Putaway", "Move", "Replenish"] as const
export const MovementTaskType = Schema.Literal(...MovementTaskTypes).annotations({
  message: () => ({ message: `must be one of ${MovementTaskTypes.join(", ")}`, override: true })
})
export type MovementTaskType = typeof MovementTaskType.Type

/** A movement task's status: 1 Open, 20 Complete, 21 Cancelled (the one status table). */
export type MovementTaskStatusId = 1 | 20 | 21

/** A movement task as the store keeps it; `created_at` is a UTC ISO instant. */
export interface StoredMovementTask {
  readonly id: number
  readonly site_id: string
  readonly client_id: string | null
  readonly task_type: MovementTaskType
  readonly status_id: MovementTaskStatusId
  /** The source content. */
  readonly content_id: number
  readonly sku_id: string
  readonly tag_id: string
  readonly qty: number
  readonly from_loc_id: string
  /** The planned destination; where the stock went once confirmed. */
  readonly to_loc_id: string
  readonly final_loc_id: string
  readonly created_by: string
  readonly reason: string | null
  readonly created_at: string
}

export type NewMovementTask = Omit<StoredMovementTask, "id">

/** A movement task as the API shows it: the task fields of §2.7 and its type, source, status and origin. */
export const MovementTaskRecord = Schema.Struct({
  id: Schema.Number,
  task_type: MovementTaskType,
  quantity: Schema.Number,
  content_id: Schema.Number,
  sku_id: Schema.String,
  tag_id: Schema.String,
  from_loc_id: Schema.String,
  to_loc_id: Schema.String,
  final_loc_id: Schema.String,
  /** `YYYY-MM-DD`, the task's creation day in the service's time zone, as on every task (§2.7). */
  creation_date: Schema.String,
  /** `YYYY-MM-DD HH:mm:ss`, the same instant to the second. */
  creation_datetime: Schema.String,
  status: Schema.String,
  status_id: Schema.Number,
  created_by: Schema.String,
  reason: Schema.NullOr(Schema.String),
  client_id: Schema.NullOr(Schema.String)
})
export type MovementTaskRecord = typeof MovementTaskRecord.Type

const Reason = Schema.optionalWith(
  Schema.NullOr(StoredText.pipe(Schema.filter((s) => s.length <= 255, {
    message: () => "must be a text of at most 255 characters"
  }))),
  { default: () => null }
)
const optionalNull = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/**
 * The body of `POST /movement-tasks`, a Move task: the source as `{content_id}`, or as `{sku_id,
 * from_loc_id, tag_id?}` (the first content of that SKU at that location, and tag, in FEFO order
 * with enough available), then `qty` and `to_loc_id`.
 */
export const NewMoveRequest = Schema.Struct({
  content_id: optionalNull(RecordId),
  sku_id: optionalNull(TextId),
  from_loc_id: optionalNull(TextId),
  tag_id: optionalNull(TextId),
  qty: Quantity,
  to_loc_id: TextId,
  reason: Reason
})
export type NewMoveRequest = typeof NewMoveRequest.Type

/**
 * The body of `POST /movement-tasks/:id/confirm`: `qty` below the task's confirms that much and
 * releases the rest; `to_loc_id` other than the planned one must pass its status and capacity.
 */
export const ConfirmMoveRequest = Schema.Struct({
  qty: optionalNull(Quantity),
  to_loc_id: optionalNull(TextId)
})
export type ConfirmMoveRequest = typeof ConfirmMoveRequest.Type

/** The body of `POST /locations/:id/move-all`. */
export const MoveAllRequest = Schema.Struct({ to_loc_id: TextId, reason: Reason })
export type MoveAllRequest = typeof MoveAllRequest.Type

/** The body of `POST /putaway-tasks`. */
export const PutawayRequest = Schema.Struct({ content_id: RecordId })
export type PutawayRequest = typeof PutawayRequest.Type

/** The filters of `GET /movement-tasks`. */
export interface MovementTaskFilter {
  /** Open unless given. */
  readonly status_id: MovementTaskStatusId
  readonly task_type?: MovementTaskType | undefined
  readonly sku_id?: string | undefined
  readonly from_loc_id?: string | undefined
  readonly to_loc_id?: string | undefined
}

/** The query of `GET /movement-tasks`: Open tasks unless `status_id` says otherwise. */
export const MovementTaskQuery = Schema.Struct({
  task_type: Schema.optional(MovementTaskType),
  status_id: Schema.optional(
    Schema.Literal("1", "20", "21").annotations({
      message: () => ({ message: "must be 1 (Open), 20 (Complete) or 21 (Cancelled)", override: true })
    })
  ),
  sku_id: Schema.optional(TextIdFromPath),
  from_loc_id: Schema.optional(TextIdFromPath),
  to_loc_id: Schema.optional(TextIdFromPath),
  ...ListWindow.fields
})
export type MovementTaskQuery = typeof MovementTaskQuery.Type
