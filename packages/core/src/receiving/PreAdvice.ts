/**
 * A pre-advice (advance shipping notice) and its lines (§2.3) as the API shows them and as the
 * write bodies carry them.
 */
import { JSONSchema, ParseResult, Schema } from "effect"
import { maxInteger, Quantity } from "../shared/Formats.js"
import { ClientId } from "../shared/Ids.js"
import { StoredText } from "../shared/Text.js"

const Text = StoredText

/** A pre-advice id in a path. */
export const PreAdviceIdFromPath = Text

/** A pre-advice id on write: not blank, at most 100 characters, unique per site. */
export const PreAdviceId = Text.pipe(
  Schema.filter((s) => s.trim() !== "", { message: () => "must not be empty" }),
  Schema.filter((s) => s.length <= 100, { message: () => "must be at most 100 characters" })
)

/** A line number: an integer from 1 to 2147483647. */
export const PreAdviceLineNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= maxInteger, {
    message: () => "must be an integer from 1 to 2147483647",
    jsonSchema: { type: "integer", minimum: 1, maximum: maxInteger }
  })
)

const ExpectedQuantity = Quantity.pipe(
  Schema.filter((n) => n <= maxInteger, { message: () => "must be at most 2147483647" })
)

const SupplierReference = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n), { message: () => "must be an integer id", jsonSchema: { type: "integer" } })
)

const SkuReference = Text.pipe(Schema.filter((s) => s !== "", { message: () => "must not be empty" }))

const ClientReference = Text.pipe(Schema.compose(ClientId))

/** The body of a new line (`POST /preadvices/:id/lines`, or an element of `lines`); absent means null. */
export const NewPreAdviceLine = Schema.Struct({
  sku_id: SkuReference,
  qty: ExpectedQuantity,
  line: Schema.optional(Schema.NullOr(PreAdviceLineNumber)),
  pallet_id: Schema.optional(Schema.NullOr(Text)),
  client_id: Schema.optional(Schema.NullOr(ClientReference))
}).annotations({ message: () => "must be an object" })
export type NewPreAdviceLine = typeof NewPreAdviceLine.Type

const LineOrLines = Schema.Union(NewPreAdviceLine, Schema.Array(NewPreAdviceLine))

const { $schema: _, ...lineOrLinesJsonSchema } = JSONSchema.make(LineOrLines)

/**
 * The body of `POST /preadvices/:id/lines`: one line, or an array of lines. The body's kind picks
 * the schema first, so that a failure names the field at fault (`qty`, `1.sku_id`) rather than
 * the member of a union that did not apply.
 */
export const PreAdviceLinesPayload = Schema.transformOrFail(
  Schema.Unknown.annotations({ jsonSchema: lineOrLinesJsonSchema }),
  Schema.typeSchema(LineOrLines),
  {
    strict: true,
    decode: (body) =>
      Array.isArray(body)
        ? ParseResult.decodeUnknown(Schema.Array(NewPreAdviceLine))(body)
        : ParseResult.decodeUnknown(NewPreAdviceLine)(body),
    encode: ParseResult.encode(LineOrLines)
  }
)

/** The body of `POST /preadvices`. */
export const NewPreAdvice = Schema.Struct({
  pre_advice_id: PreAdviceId,
  supplier: Schema.optionalWith(Schema.NullOr(SupplierReference), { default: () => null }),
  client_id: Schema.optionalWith(Schema.NullOr(ClientReference), { default: () => null }),
  lines: Schema.optionalWith(
    Schema.NullOr(Schema.Array(NewPreAdviceLine).annotations({ message: () => "must be an array of lines" })),
    { default: () => [] }
  )
})
export type NewPreAdvice = typeof NewPreAdvice.Type

/** The body of `PUT /preadvices/:id`: only the fields present change; `null` clears one. */
export const PreAdviceChanges = Schema.Struct({
  supplier: Schema.optional(Schema.NullOr(SupplierReference)),
  client_id: Schema.optional(Schema.NullOr(ClientReference))
})
export type PreAdviceChanges = typeof PreAdviceChanges.Type

/** The body of `PUT /preadvices/:id/lines/:line_id`: only the fields present change. */
export const PreAdviceLineChanges = Schema.Struct({
  sku_id: Schema.optional(SkuReference),
  qty: Schema.optional(ExpectedQuantity),
  pallet_id: Schema.optional(Schema.NullOr(Text)),
  client_id: Schema.optional(Schema.NullOr(ClientReference))
})
export type PreAdviceLineChanges = typeof PreAdviceLineChanges.Type

const StatusRecord = Schema.Struct({ id: Schema.Number, description: Schema.String })

const SupplierSummary = Schema.Struct({ id: Schema.Number, name: Schema.String })

/** An item of `GET /preadvices`. */
export const PreAdviceListItem = Schema.Struct({
  id: Schema.Number,
  pre_advice_id: Schema.String,
  client_id: Schema.NullOr(Schema.String),
  pre_advice_status: StatusRecord,
  pre_advice_status_description: Schema.String,
  supplier: Schema.NullOr(SupplierSummary),
  supplier_id: Schema.NullOr(Schema.Number),
  creation_datetime: Schema.String,
  created_by: Schema.String
})
export type PreAdviceListItem = typeof PreAdviceListItem.Type

/** A pre-advice line as returned. */
export const PreAdviceLine = Schema.Struct({
  pre_advice_id: Schema.String,
  line: Schema.Number,
  sku_id: Schema.String,
  qty: Schema.Number,
  qty_received: Schema.Number,
  pallet_id: Schema.NullOr(Schema.String),
  client_id: Schema.NullOr(Schema.String),
  /**
   * On a transfer's line only (spec §3 T2, T5): the tag and expiry shipped, and what a short-close
   * wrote off (0 until then); other lines have exactly the documented keys.
   */
  tag_id: Schema.optional(Schema.String),
  expiry_date: Schema.optional(Schema.NullOr(Schema.String)),
  qty_lost: Schema.optional(Schema.Number)
})
export type PreAdviceLine = typeof PreAdviceLine.Type

/** A pre-advice as `GET /preadvices/:id` returns it: no `id`, `supplier_id` or status description. */
export const PreAdvice = Schema.Struct({
  pre_advice_id: Schema.String,
  client_id: Schema.NullOr(Schema.String),
  pre_advice_status: StatusRecord,
  supplier: Schema.NullOr(SupplierSummary),
  creation_datetime: Schema.String,
  created_by: Schema.String,
  /**
   * On a transfer's pre-advice only (spec §3): the transfer order, the site that shipped it, and the
   * reason it was short-closed with (null until then).
   */
  transfer_order_id: Schema.optional(Schema.String),
  from_site: Schema.optional(Schema.String),
  reason_code: Schema.optional(Schema.NullOr(Schema.String)),
  lines: Schema.Array(PreAdviceLine)
})
export type PreAdvice = typeof PreAdvice.Type
