/**
 * The settings of a site (warehouse cycle, Decided 4): read and changed by admins only, for any
 * site. A change writes the fields present and keeps the others.
 */
import { Effect, Option, Schema } from "effect"
import { SiteId } from "../shared/Ids.js"
import { type Actor, requireAdmin } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { SiteNotFound } from "./Errors.js"
import { SiteRepository } from "./SiteRepository.js"
import type { SiteSettingsUpdate } from "./SiteSettings.js"
import { SiteSettingsRepository } from "./SiteSettingsRepository.js"

const decodeSiteId = Schema.decodeUnknownOption(SiteId)

export class SiteSettingsService extends Effect.Service<SiteSettingsService>()("@wms/core/SiteSettingsService", {
  effect: Effect.gen(function*() {
    const settings = yield* SiteSettingsRepository
    const sites = yield* SiteRepository
    const { atomically } = yield* Transactor

    /** The site of a path id; an id no site can have is as unknown as one none has. */
    const existingSite = Effect.fnUntraced(function*(siteId: string) {
      const id = decodeSiteId(siteId)
      if (Option.isNone(id) || Option.isNone(yield* sites.findSite(id.value))) {
        return yield* new SiteNotFound({ siteId })
      }
      return id.value
    })

    const get = Effect.fnUntraced(function*(actor: Actor, siteId: string) {
      yield* requireAdmin(actor)
      return yield* settings.get(yield* existingSite(siteId))
    })

    const update = Effect.fnUntraced(function*(actor: Actor, siteId: string, patch: SiteSettingsUpdate) {
      yield* requireAdmin(actor)
      yield* atomically(Effect.gen(function*() {
        const id = yield* existingSite(siteId)
        const current = yield* settings.get(id)
        yield* settings.put(id, {
          putaway_on_receipt: patch.putaway_on_receipt ?? current.putaway_on_receipt,
          reallocate_short_picks: patch.reallocate_short_picks ?? current.reallocate_short_picks,
          backorders: patch.backorders ?? current.backorders,
          count_on_short_pick: patch.count_on_short_pick ?? current.count_on_short_pick,
          count_variance_threshold: patch.count_variance_threshold ?? current.count_variance_threshold,
          gs1_company_prefix: patch.gs1_company_prefix === undefined
            ? current.gs1_company_prefix
            : patch.gs1_company_prefix,
          sscc_extension_digit: patch.sscc_extension_digit ?? current.sscc_extension_digit,
          pack_before_ship: patch.pack_before_ship ?? current.pack_before_ship
        })
      }))
    })

    return {
      getSiteSettings: get,
      updateSiteSettings: update,
      /** @deprecated Use `getSiteSettings`. */
      get,
      /** @deprecated Use `updateSiteSettings`. */
      update
    } as const
  })
}) {}
