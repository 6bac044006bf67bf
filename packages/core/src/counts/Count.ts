/**
 * Cycle counts (extension, warehouse cycle §3.5). A count covers one managed location, or one SKU
 * in it. Release freezes the location (`Counting`) and snapshots what each content holds
 * (`expected`); confirmations of picks and moves that were tasked before the release go on, each
 * recorded against the count (`in_flight`), so the variance is counted against what should be
 * there: `qty_counted − (expected + in_flight)`. Recording lines is idempotent per count index,
 * SKU and tag (the last write wins); a count whose lines are all within the site's threshold is
 * applied at once, another waits for an admin's approval, a recount or a cancel.
 */
import { Schema } from "effect"
import type { LocationStatus } from "../locations/Location.js"
import { TextId } from "../masterdata/MasterData.js"
import { CalendarDate, maxQuantity } from "../shared/Formats.js"
import { StoredText } from "../shared/Text.js"
import { ListWindow } from "../shared/Window.js"
import { ReasonCode } from "../stock/ReasonCode.js"

/** A count's status: 1 Open, 22 Counting, 23 Pending Approval, 20 Complete, 21 Cancelled. */
export type CountStatusId = 1 | 20 | 21 | 22 | 23

/** A count as the store keeps it; instants are UTC ISO. */
export interface StoredCount {
  readonly id: number
  readonly site_id: string
  readonly loc_id: string
  /** The one SKU counted; null: everything at the location. */
  readonly sku_id: string | null
  readonly blind: boolean
  readonly assignee: string | null
  readonly reason: string | null
  readonly status_id: CountStatusId
  /** 1 at creation, +1 per recount: lines and snapshot belong to one index. */
  readonly count_index: number
  /** The location's status at release, given back when the count ends. */
  readonly location_status: LocationStatus | null
  /** The reason of the applied variance: the approver's, else `Miscount`. */
  readonly reason_code: string | null
  readonly created_by: string
  readonly created_at: string
  readonly released_at: string | null
  readonly completed_at: string | null
  readonly approved_by: string | null
}

export type NewCount = Omit<
  StoredCount,
  "id" | "location_status" | "reason_code" | "released_at" | "completed_at" | "approved_by"
>

/** What one content held at release (`expected`) and what confirmed tasks took since (`in_flight`, signed). */
export interface SnapshotContent {
  readonly content_id: number
  readonly client_id: string | null
  readonly sku_id: string
  readonly tag_id: string
  readonly expiry_date: string | null
  readonly expected: number
  readonly in_flight: number
}

/** A recorded line; `tag_id` null counts the SKU's stock at the location whose tag no other line names. */
export interface RecordedLine {
  readonly sku_id: string
  /** The owner of the SKU: the owner of stock the line finds. */
  readonly client_id: string | null
  readonly tag_id: string | null
  readonly expiry_date: string | null
  readonly qty_counted: number
}

/** A line of a count as the API shows it; `expected`, `in_flight` and `variance` are hidden on a blind count. */
export const CountLineRecord = Schema.Struct({
  sku_id: Schema.String,
  tag_id: Schema.NullOr(Schema.String),
  client_id: Schema.NullOr(Schema.String),
  expected: Schema.optional(Schema.Number),
  in_flight: Schema.optional(Schema.Number),
  qty_counted: Schema.NullOr(Schema.Number),
  variance: Schema.optional(Schema.NullOr(Schema.Number)),
  within_threshold: Schema.optional(Schema.NullOr(Schema.Boolean))
})
export type CountLineRecord = typeof CountLineRecord.Type

/** A count as `GET /counts/:id` shows it. */
export const CountRecord = Schema.Struct({
  id: Schema.Number,
  loc_id: Schema.String,
  sku_id: Schema.NullOr(Schema.String),
  blind: Schema.Boolean,
  assignee: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  status: Schema.String,
  status_id: Schema.Number,
  count_index: Schema.Number,
  reason_code: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  creation_date: Schema.String,
  release_date: Schema.NullOr(Schema.String),
  completion_date: Schema.NullOr(Schema.String),
  approved_by: Schema.NullOr(Schema.String),
  lines: Schema.Array(CountLineRecord)
})
export type CountRecord = typeof CountRecord.Type

const Text = StoredText.pipe(Schema.filter((s) => s.length <= 255, {
  message: () => "must be a text of at most 255 characters"
}))
const optionalNull = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/** The body of `POST /counts`. */
export const NewCountRequest = Schema.Struct({
  loc_id: TextId,
  sku_id: optionalNull(TextId),
  blind: Schema.optionalWith(Schema.Boolean, { default: () => false, nullable: true }),
  assignee: optionalNull(Text),
  reason: optionalNull(Text)
})
export type NewCountRequest = typeof NewCountRequest.Type

const Max = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 1000, {
    message: () => "must be an integer from 1 to 1000",
    jsonSchema: { type: "integer", minimum: 1, maximum: 1000 }
  })
)

/** How many counts a plan opens when its body does not say. */
export const defaultPlanSize = 10

/** The body of `POST /counts/plan`: the locations to count, oldest `last_counted` first. */
export const PlanCountsRequest = Schema.Struct({
  zone: optionalNull(TextId),
  loc_type: optionalNull(
    Schema.Literal("Receiving", "Storage", "PickFace", "Staging", "Dock", "LostAndFound", "Quarantine")
  ),
  max: Schema.optionalWith(Max, { default: () => defaultPlanSize, nullable: true })
})
export type PlanCountsRequest = typeof PlanCountsRequest.Type

const Counted = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= maxQuantity, {
    message: () => `must be an integer from 0 to ${maxQuantity}`,
    jsonSchema: { type: "integer", minimum: 0, maximum: maxQuantity }
  })
)

/** One line of `POST /counts/:id/record`. */
export const CountLineInput = Schema.Struct({
  tag_id: optionalNull(TextId),
  sku_id: TextId,
  qty_counted: Counted,
  expiry_date: optionalNull(CalendarDate)
})
export type CountLineInput = typeof CountLineInput.Type

/** The body of `POST /counts/:id/record`. */
export const RecordCountRequest = Schema.Struct({
  lines: Schema.Array(CountLineInput).pipe(
    Schema.filter((lines) => lines.length >= 1 && lines.length <= 10_000, {
      message: () => "must hold from 1 to 10000 lines"
    })
  )
})
export type RecordCountRequest = typeof RecordCountRequest.Type

/** The body of `POST /counts/:id/approve`. */
export const ApproveCountRequest = Schema.Struct({ reason_code: ReasonCode })
export type ApproveCountRequest = typeof ApproveCountRequest.Type

/** The filters of `GET /counts`. */
export interface CountFilter {
  readonly status_id?: CountStatusId | undefined
  readonly loc_id?: string | undefined
  readonly zone?: string | undefined
}

/** The query of `GET /counts`: every count unless `status` (a status id) says otherwise. */
export const CountQuery = Schema.Struct({
  status: Schema.optional(
    Schema.String.pipe(
      Schema.filter((s) => ["1", "20", "21", "22", "23"].includes(s), {
        message: () => "must be 1 (Open), 20 (Complete), 21 (Cancelled), 22 (Counting) or 23 (Pending Approval)"
      })
    )
  ),
  loc_id: Schema.optional(TextId),
  zone: Schema.optional(TextId),
  ...ListWindow.fields
})
export type CountQuery = typeof CountQuery.Type
