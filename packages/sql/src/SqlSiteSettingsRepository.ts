/**
 * The settings of sites on @effect/sql: one row per site that changed them, booleans as 0/1. A
 * site without a row has the defaults.
 */
import { SqlClient } from "@effect/sql"
import { defaultSiteSettings, SiteSettingsRepository } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { first, run } from "./Query.js"

interface SiteSettingsRow {
  readonly putaway_on_receipt: number
}

export const layer = Layer.effect(
  SiteSettingsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SiteSettingsRepository.of({
      get: (siteId) =>
        Effect.map(
          first(
            sql<SiteSettingsRow>`SELECT putaway_on_receipt FROM site_settings WHERE site_id = ${siteId}`,
            (row) => ({ putaway_on_receipt: row.putaway_on_receipt === 1 })
          ),
          Option.getOrElse(() => defaultSiteSettings)
        ),
      put: (siteId, settings) =>
        run(sql`INSERT INTO site_settings (site_id, putaway_on_receipt)
          VALUES (${siteId}, ${settings.putaway_on_receipt ? 1 : 0})
          ON CONFLICT (site_id) DO UPDATE SET putaway_on_receipt = excluded.putaway_on_receipt`)
    })
  })
)
