/**
 * Holds (spec §1 of HOLDS-RETURNS-TRANSFERS-PACKING): a record that makes stock unavailable without
 * moving it or changing its quantity. Its scope is the fields given at creation: one content, a SKU
 * (with a tag and/or an expiry date: a lot), a location (with a SKU), or both; several holds may
 * cover the same stock and each is released on its own.
 */
import { Schema } from "effect"
import { RequiredText, TextId } from "../masterdata/MasterData.js"
import { CalendarDate, RecordId, RecordIdFromPath } from "../shared/Formats.js"
import { ListWindow } from "../shared/Window.js"

/** A hold's status: 24 Active, or 14 Released (the one status table). */
export type HoldStatusId = 24 | 14

/** What a hold covers: the scope fields it was created with; absent ones are null. */
export interface HoldScope {
  readonly client_id: string | null
  readonly content_id: number | null
  readonly sku_id: string | null
  readonly tag_id: string | null
  readonly expiry_date: string | null
  readonly loc_id: string | null
}

/** The stock a scope is matched against. */
export interface HeldCandidate {
  readonly content_id: number
  readonly client_id: string | null
  readonly sku_id: string
  readonly tag_id: string
  readonly expiry_date: string | null
  readonly loc_id: string
}

/**
 * Whether a SKU, lot or location scope covers the content: every field it gives matches, and a
 * client's hold covers only that client's stock. A content hold covers the contents it names
 * (its own and those a movement from it filled), which only the store's list knows: none here.
 */
export const scopeCovers = (scope: HoldScope, content: HeldCandidate): boolean =>
  scope.content_id === null &&
  (scope.sku_id !== null || scope.loc_id !== null) &&
  (scope.client_id === null || scope.client_id === content.client_id) &&
  (scope.sku_id === null || scope.sku_id === content.sku_id) &&
  (scope.tag_id === null || scope.tag_id === content.tag_id) &&
  (scope.expiry_date === null || scope.expiry_date === content.expiry_date) &&
  (scope.loc_id === null || scope.loc_id === content.loc_id)

/** The longest `reason_code`. */
export const maxReasonCodeLength = 50
/** The longest `notes`. */
export const maxHoldNotesLength = 1000

const ReasonCodeText = RequiredText.pipe(
  Schema.filter((s) => s.length <= maxReasonCodeLength, {
    message: () => `must be at most ${maxReasonCodeLength} characters`
  })
)

const Notes = Schema.optionalWith(
  Schema.NullOr(Schema.String.pipe(
    Schema.filter((s) => !s.includes("\u0000"), { message: () => "must not contain NUL characters" }),
    Schema.filter((s) => s.length <= maxHoldNotesLength, {
      message: () => `must be at most ${maxHoldNotesLength} characters`
    })
  )),
  { default: () => null }
)

const optionalNull = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/** A hold as `GET /holds/:id` shows it. */
export const Hold = Schema.Struct({
  id: Schema.Number,
  client_id: Schema.NullOr(Schema.String),
  sku_id: Schema.NullOr(Schema.String),
  tag_id: Schema.NullOr(Schema.String),
  expiry_date: Schema.NullOr(Schema.String),
  loc_id: Schema.NullOr(Schema.String),
  content_id: Schema.NullOr(Schema.Number),
  reason_code: Schema.String,
  notes: Schema.NullOr(Schema.String),
  status: Schema.String,
  status_id: Schema.Number,
  deallocate: Schema.Boolean,
  created_by: Schema.String,
  creation_datetime: Schema.String,
  released_by: Schema.NullOr(Schema.String),
  release_datetime: Schema.NullOr(Schema.String),
  release_notes: Schema.NullOr(Schema.String),
  /** The sum of `qty` of the contents the hold covers now; 0 once released. */
  qty_covered: Schema.Number
})
export type Hold = typeof Hold.Type

/** The scope fields of a new hold, as the body of `POST /holds` and of a recall give them. */
const scopeFields = {
  sku_id: optionalNull(TextId),
  tag_id: optionalNull(TextId),
  expiry_date: optionalNull(CalendarDate),
  reason_code: ReasonCodeText,
  notes: Notes
}

/** The body of `POST /holds`. */
export const NewHold = Schema.Struct({
  content_id: optionalNull(RecordId),
  ...scopeFields,
  loc_id: optionalNull(TextId),
  deallocate: Schema.optionalWith(Schema.NullOr(Schema.Boolean), { default: () => null })
})
export type NewHold = typeof NewHold.Type

/** The body of `POST /holds/:id/release`. */
export const ReleaseHold = Schema.Struct({ notes: Notes })
export type ReleaseHold = typeof ReleaseHold.Type

/** The query of `GET /holds`: Active holds unless `status_id` says otherwise. */
export const HoldQuery = Schema.Struct({
  status_id: Schema.optional(RecordIdFromPath),
  sku_id: Schema.optional(TextId),
  loc_id: Schema.optional(TextId),
  reason_code: Schema.optional(ReasonCodeText),
  ...ListWindow.fields
})
export type HoldQuery = typeof HoldQuery.Type
