import { assert, describe, it } from "@effect/vitest"
import {
  Administration,
  EventSubscriptions,
  NewPreAdvice,
  NewSku,
  PreAdvices,
  Receiving,
  SiteId,
  Skus,
  systemActor
} from "@wms/core"
import { Warehouse, WebhookWorker } from "@wms/http"
import { Deferred, Effect, Layer, Option, Schema } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"

const databases = [
  ["sqlite", Effect.map(freshSqliteFile, (file) => `sqlite:${file}`)],
  ["postgres", freshPgDatabase]
] as const

/** Receives a new pre-advice of one line in full: one `preadvice_received` event. */
const receiveOne = (preAdviceId: string) =>
  Effect.gen(function*() {
    const actor = yield* systemActor("main")
    yield* (yield* Skus).create(
      actor,
      Schema.decodeUnknownSync(NewSku)({ sku_id: `SKU-${preAdviceId}`, description: "Bolt" })
    )
    yield* (yield* PreAdvices).create(
      actor,
      Schema.decodeUnknownSync(NewPreAdvice)({
        pre_advice_id: preAdviceId,
        lines: [{ sku_id: `SKU-${preAdviceId}`, qty: 2 }]
      })
    )
    yield* (yield* Receiving).receive(actor, preAdviceId, { lines: null, putaway: null })
  })

for (const [label, database] of databases) {
  describe(`in-process event subscriptions on ${label}`, () => {
    it.live(
      "a subscriber gets every event committed after subscribe returns, even before the worker's first round",
      () =>
        Effect.gen(function*() {
          const warehouse = yield* Layer.build(Warehouse.layer({ database: yield* database }))
          yield* Effect.gen(function*() {
            yield* (yield* Administration).bootstrap({
              siteId: SiteId.make("main"),
              adminEmail: "admin@example.com",
              adminPassword: Option.some("admin-password")
            })
            yield* receiveOne("BEFORE")
            const seen: Array<string> = []
            const second = yield* Deferred.make<void>()
            yield* (yield* EventSubscriptions).subscribe("preadvice_received", (event) =>
              Effect.gen(function*() {
                seen.push((event.data as { pre_advice_id: string }).pre_advice_id)
                if (seen.length === 2) yield* Deferred.succeed(second, undefined)
              }))
            // Committed after subscribe returned, before the worker runs at all.
            yield* receiveOne("AFTER-1")
            yield* Layer.build(WebhookWorker.layer)
            yield* receiveOne("AFTER-2")
            yield* Deferred.await(second).pipe(Effect.timeout("15 seconds"))
            assert.deepStrictEqual(seen, ["AFTER-1", "AFTER-2"])
          }).pipe(Effect.provide(warehouse))
        }).pipe(Effect.orDie).pipe(Effect.scoped),
      { timeout: 60_000 }
    )
  })
}
