/**
 * The settings of a site that turn on behaviour of the warehouse cycle which changes what an
 * existing request does. Every one is off by default, so a site that never sets them behaves as
 * before they existed. Read and changed by admins through `GET` and `PUT /sites/:id/settings`.
 */
import { Schema } from "effect"

const Percent = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n >= 0 && n <= 1_000_000, {
    message: () => "must be a number from 0 to 1000000",
    jsonSchema: { minimum: 0, maximum: 1_000_000 }
  })
)
const Units = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= 2147483647, {
    message: () => "must be a whole number from 0 to 2147483647",
    jsonSchema: { type: "integer", minimum: 0, maximum: 2147483647 }
  })
)

// A GS1 company prefix is 7 to 10 digits (spec §4 P1); the SSCC's serial fills the rest.
const CompanyPrefix = Schema.String.pipe(
  Schema.filter((s) => /^\d{7,10}$/.test(s), {
    message: () => "must be a GS1 company prefix of 7 to 10 digits",
    jsonSchema: { pattern: "^\\d{7,10}$" }
  })
)
const ExtensionDigit = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= 9, {
    message: () => "must be a digit from 0 to 9",
    jsonSchema: { type: "integer", minimum: 0, maximum: 9 }
  })
)

/**
 * How far a count line may be off without an admin's approval (warehouse cycle Decided 4): a line
 * is within when `|variance| ≤ units` (if set) and `|variance| ≤ percent × expected / 100` (if
 * set). Both null: every count applies at once.
 */
export const CountVarianceThreshold = Schema.Struct({
  percent: Schema.NullOr(Schema.Number),
  units: Schema.NullOr(Schema.Number)
})
export type CountVarianceThreshold = typeof CountVarianceThreshold.Type

/** The settings of a site as `GET /sites/:id/settings` shows them. */
export const SiteSettings = Schema.Struct({
  /** Whether `POST /preadvices/:id/receive` makes putaway tasks when its body does not say. */
  putaway_on_receipt: Schema.Boolean,
  /** Whether a short pick re-allocates its shortfall when its confirmation does not say. */
  reallocate_short_picks: Schema.Boolean,
  /** Whether what a short pick leaves uncovered ships later as a backorder order. */
  backorders: Schema.Boolean,
  /** Whether a short pick opens a control count of the location it was short at. */
  count_on_short_pick: Schema.Boolean,
  count_variance_threshold: CountVarianceThreshold,
  /** The GS1 company prefix the site's SSCCs are made with (spec §4 P1); none: it makes none. */
  gs1_company_prefix: Schema.NullOr(Schema.String),
  /** The extension digit that starts the site's SSCCs, 0 to 9. */
  sscc_extension_digit: Schema.Number,
  /** Whether an order ships only once all it picked is packed in closed shipping units (spec §4 P5). */
  pack_before_ship: Schema.Boolean
})
export type SiteSettings = typeof SiteSettings.Type

/** The settings of a site that never changed them. */
export const defaultSiteSettings: SiteSettings = {
  putaway_on_receipt: false,
  reallocate_short_picks: false,
  backorders: false,
  count_on_short_pick: false,
  count_variance_threshold: { percent: null, units: null },
  gs1_company_prefix: null,
  sscc_extension_digit: 0,
  pack_before_ship: false
}

/** The body of `PUT /sites/:id/settings`: the fields present change, the others stay. */
export const SiteSettingsUpdate = Schema.Struct({
  putaway_on_receipt: Schema.optional(Schema.Boolean),
  reallocate_short_picks: Schema.optional(Schema.Boolean),
  backorders: Schema.optional(Schema.Boolean),
  count_on_short_pick: Schema.optional(Schema.Boolean),
  /** Replaces both limits: an omitted one becomes null (unset). */
  count_variance_threshold: Schema.optional(Schema.Struct({
    percent: Schema.optionalWith(Schema.NullOr(Percent), { default: () => null }),
    units: Schema.optionalWith(Schema.NullOr(Units), { default: () => null })
  })),
  /** `null` removes the prefix: the site makes no SSCCs, though a client may still give its own. */
  gs1_company_prefix: Schema.optional(Schema.NullOr(CompanyPrefix)),
  sscc_extension_digit: Schema.optional(ExtensionDigit),
  pack_before_ship: Schema.optional(Schema.Boolean)
})
export type SiteSettingsUpdate = typeof SiteSettingsUpdate.Type
