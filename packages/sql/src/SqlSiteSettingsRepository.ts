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
  readonly reallocate_short_picks: number
  readonly backorders: number
  readonly count_on_short_pick: number
  readonly count_variance_percent: number | null
  readonly count_variance_units: number | null
  readonly gs1_company_prefix: string | null
  readonly sscc_extension_digit: number
  readonly pack_before_ship: number
}

export const layer = Layer.effect(
  SiteSettingsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SiteSettingsRepository.of({
      get: (siteId) =>
        Effect.map(
          first(
            sql<SiteSettingsRow>`SELECT putaway_on_receipt, reallocate_short_picks, backorders,
              count_on_short_pick, count_variance_percent, count_variance_units,
              gs1_company_prefix, sscc_extension_digit, pack_before_ship
              FROM site_settings WHERE site_id = ${siteId}`,
            (row): SiteSettings => ({
              putaway_on_receipt: row.putaway_on_receipt === 1,
              reallocate_short_picks: row.reallocate_short_picks === 1,
              backorders: row.backorders === 1,
              count_on_short_pick: row.count_on_short_pick === 1,
              count_variance_threshold: {
                percent: row.count_variance_percent === null ? null : Number(row.count_variance_percent),
                units: row.count_variance_units === null ? null : Number(row.count_variance_units)
              },
              gs1_company_prefix: row.gs1_company_prefix,
              sscc_extension_digit: row.sscc_extension_digit,
              pack_before_ship: row.pack_before_ship === 1
            })
          ),
          Option.getOrElse(() => defaultSiteSettings)
        ),
      put: (siteId, settings) =>
        run(sql`INSERT INTO site_settings (site_id, putaway_on_receipt, reallocate_short_picks, backorders,
            count_on_short_pick, count_variance_percent, count_variance_units, gs1_company_prefix,
            sscc_extension_digit, pack_before_ship)
          VALUES (${siteId}, ${settings.putaway_on_receipt ? 1 : 0}, ${settings.reallocate_short_picks ? 1 : 0},
            ${settings.backorders ? 1 : 0}, ${settings.count_on_short_pick ? 1 : 0},
            ${settings.count_variance_threshold.percent}, ${settings.count_variance_threshold.units},
            ${settings.gs1_company_prefix}, ${settings.sscc_extension_digit}, ${settings.pack_before_ship ? 1 : 0})
          ON CONFLICT (site_id) DO UPDATE SET putaway_on_receipt = excluded.putaway_on_receipt,
            reallocate_short_picks = excluded.reallocate_short_picks, backorders = excluded.backorders,
            count_on_short_pick = excluded.count_on_short_pick,
            count_variance_percent = excluded.count_variance_percent,
            count_variance_units = excluded.count_variance_units,
            gs1_company_prefix = excluded.gs1_company_prefix,
            sscc_extension_digit = excluded.sscc_extension_digit,
            pack_before_ship = excluded.pack_before_ship`)
    })
  })
)
