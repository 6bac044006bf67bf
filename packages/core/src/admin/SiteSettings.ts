/**
 * The settings of a site that turn on behaviour of the warehouse cycle which changes what an
 * existing request does. Every one is off by default, so a site that never sets them behaves as
 * before they existed. Read and changed by admins through `GET` and `PUT /sites/:id/settings`.
 */
import { Schema } from "effect"

/** The settings of a site as `GET /sites/:id/settings` shows them. */
export const SiteSettings = Schema.Struct({
  /** Whether `POST /preadvices/:id/receive` makes putaway tasks when its body does not say. */
  putaway_on_receipt: Schema.Boolean
})
export type SiteSettings = typeof SiteSettings.Type

/** The settings of a site that never changed them. */
export const defaultSiteSettings: SiteSettings = { putaway_on_receipt: false }

/** The body of `PUT /sites/:id/settings`: the fields present change, the others stay. */
export const SiteSettingsUpdate = Schema.Struct({
  putaway_on_receipt: Schema.optional(Schema.Boolean)
})
export type SiteSettingsUpdate = typeof SiteSettingsUpdate.Type
