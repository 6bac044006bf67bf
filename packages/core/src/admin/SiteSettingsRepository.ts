/**
 * The store port for the settings of sites.
 */
import { Context, type Effect } from "effect"
import type { SiteId } from "../shared/Ids.js"
import type { SiteSettings } from "./SiteSettings.js"

export class SiteSettingsRepository extends Context.Tag("@wms/core/SiteSettingsRepository")<SiteSettingsRepository, {
  /** The settings of the site: `defaultSiteSettings` where it never set one. */
  readonly get: (siteId: SiteId) => Effect.Effect<SiteSettings>
  /** Stores the site's settings, all of them. */
  readonly put: (siteId: SiteId, settings: SiteSettings) => Effect.Effect<void>
}>() {}
