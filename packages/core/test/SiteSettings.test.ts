import { assert, describe, it } from "@effect/vitest"
import {
  type Actor,
  defaultSiteSettings,
  SiteId,
  SiteRepository,
  SiteSettingsRepository,
  SiteSettingsService,
  UserId
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { Effect, Layer, Option } from "effect"
import { failure, siteActor } from "./Fixtures.js"

describe("SiteSettingsService", () => {
  const admin: Actor = { ...siteActor, userId: UserId.make("admin"), admin: true }

  const withSettings = <A, E>(log: CallLog, f: (settings: SiteSettingsService) => Effect.Effect<A, E>) =>
    Effect.flatMap(SiteSettingsService, f).pipe(Effect.provide(SiteSettingsService.Default.pipe(Layer.provide([
      makeTestLayer(SiteSettingsRepository)({
        get: () => Effect.succeed({ ...defaultSiteSettings, putaway_on_receipt: true }),
        put: () => Effect.void
      }, log),
      makeTestLayer(SiteRepository)({
        findSite: (siteId) =>
          Effect.succeed(siteId === "F" ? Option.some({ site_id: SiteId.make("F") } as never) : Option.none())
      }, log),
      testTransactor(log)
    ]))))

  it.effect("admins read and change any site's settings; a change keeps the fields it does not name", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const read = yield* withSettings(log, (settings) => settings.get(admin, "F"))
      assert.deepStrictEqual(read, { ...defaultSiteSettings, putaway_on_receipt: true })
      yield* withSettings(log, (settings) => settings.update(admin, "F", {}))
      yield* withSettings(log, (settings) => settings.update(admin, "F", { putaway_on_receipt: false }))
      yield* withSettings(
        log,
        (settings) => settings.update(admin, "F", { count_variance_threshold: { percent: 5, units: null } })
      )
      yield* withSettings(
        log,
        (settings) => settings.update(admin, "F", { reallocate_short_picks: true, backorders: true })
      )
      yield* withSettings(log, (settings) => settings.update(admin, "F", { count_on_short_pick: true }))
      const stored = { ...defaultSiteSettings, putaway_on_receipt: true }
      assert.deepStrictEqual(log.argsOf("SiteSettingsRepository.put"), [
        ["F", stored],
        ["F", { ...stored, putaway_on_receipt: false }],
        ["F", { ...stored, count_variance_threshold: { percent: 5, units: null } }],
        ["F", { ...stored, reallocate_short_picks: true, backorders: true }],
        ["F", { ...stored, count_on_short_pick: true }]
      ])
    }))

  it.effect("anyone else gets a 403 before the site is looked up; an unknown site is a 404", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      assert.deepStrictEqual(yield* failure(withSettings(log, (s) => s.get(siteActor, "NOPE"))), [
        "Forbidden",
        "Admin rights required"
      ])
      assert.deepStrictEqual(yield* failure(withSettings(log, (s) => s.update(siteActor, "F", {}))), [
        "Forbidden",
        "Admin rights required"
      ])
      assert.deepStrictEqual(log.methods, [])
      assert.deepStrictEqual(yield* failure(withSettings(log, (s) => s.get(admin, "NOPE"))), [
        "SiteNotFound",
        "Site with id NOPE not found"
      ])
      assert.deepStrictEqual(yield* failure(withSettings(log, (s) => s.update(admin, "", {}))), [
        "SiteNotFound",
        "Site with id  not found"
      ])
    }))
})
