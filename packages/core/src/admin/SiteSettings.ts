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
  count_variance_threshold: CountVarianceThreshold
})
export type SiteSettings = typeof SiteSettings.Type

/** The settings of a site that never changed them. */
export const defaultSiteSettings: SiteSettings = {
  putaway_on_receipt: false,
  reallocate_short_picks: false,
  backorders: false,
  count_on_short_pick: false,
  count_variance_threshold: { percent: null, units: null }
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
  }))
})
export type SiteSettingsUpdate = typeof SiteSettingsUpdate.Type
