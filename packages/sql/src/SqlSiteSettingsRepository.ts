/**
 * The settings of sites on @effect/sql: one row per site that changed them, booleans as 0/1, the
 * count variance threshold as two nullable columns. A site without a row has the defaults.
 */
import { SqlClient } from "@effect/sql"
import { defaultSiteSettings, type SiteSettings, SiteSettingsRepository } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { first, run } from "./Query.js"

interface SiteSettingsRow {
  readonly putaway_on_receipt: number
  readonly count_variance_percent: number | null
  readonly count_variance_units: number | null
}

export const layer = Layer.effect(
  SiteSettingsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SiteSettingsRepository.of({
      get: (siteId) =>
        Effect.map(
          first(
            sql<SiteSettingsRow>`SELECT putaway_on_receipt, count_variance_percent, count_variance_units
              FROM site_settings WHERE site_id = ${siteId}`,
            (row): SiteSettings => ({
              putaway_on_receipt: row.putaway_on_receipt === 1,
              count_variance_threshold: {
                percent: row.count_variance_percent === null ? null : Number(row.count_variance_percent),
                units: row.count_variance_units === null ? null : Number(row.count_variance_units)
              }
            })
          ),
          Option.getOrElse(() => defaultSiteSettings)
        ),
      put: (siteId, settings) =>
        run(sql`INSERT INTO site_settings (site_id, putaway_on_receipt, count_variance_percent, count_variance_units)
          VALUES (${siteId}, ${settings.putaway_on_receipt ? 1 : 0}, ${settings.count_variance_threshold.percent},
            ${settings.count_variance_threshold.units})
          ON CONFLICT (site_id) DO UPDATE SET putaway_on_receipt = excluded.putaway_on_receipt,
            count_variance_percent = excluded.count_variance_percent,
            count_variance_units = excluded.count_variance_units`)
    })
  })
)
