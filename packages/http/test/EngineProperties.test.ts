import { assert, describe, layer } from "@effect/vitest"
import { ensureSite, systemActor } from "@wms/core"
import { arbOps, arbWarehouse, play } from "@wms/core/testing"
import { Warehouse } from "@wms/http"
import { Clock, Effect, Layer } from "effect"
import { onBothStores } from "../../../testing/databases.js"

// The services on each store, on the real clock: expiry is judged against today.
const stores = onBothStores((db) =>
  Warehouse.layer({ database: db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url }).pipe(
    Layer.provide(Layer.setClock(Clock.make()))
  )
)

let run = 0

for (const [label, services] of stores) {
  describe(`the engine under generated operations on ${label}`, () => {
    layer(services, { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect.prop(
        "keeps the stock rule, the claims, the ledger and FEFO through any sequence",
        [arbWarehouse(), arbOps({ maxLength: 15 })],
        ([state, ops]) =>
          Effect.gen(function*() {
            // A site per run: runs share the database, never their stock.
            const site = `prop-${++run}`
            yield* ensureSite(site)
            const { outcomes, violations } = yield* play(yield* systemActor(site), state, ops)
            assert.deepStrictEqual(violations, [])
            assert.strictEqual(outcomes.length, ops.length)
          }).pipe(Effect.orDie),
        { fastCheck: { numRuns: label === "sqlite" ? 25 : 12 } }
      )

      it.effect("plays every kind of operation through to its end", () =>
        Effect.gen(function*() {
          const site = `walk-${++run}`
          yield* ensureSite(site)
          const state = {
            skus: [{ sku_id: "MILK", expiry_days: 10 }],
            contents: [
              { sku_id: "MILK", loc_id: "A-01", qty: 5, expiry_in_days: 20 },
              { sku_id: "MILK", loc_id: "A-02", qty: 5, expiry_in_days: 5 },
              { sku_id: "MILK", loc_id: "A-02", qty: 9, expiry_in_days: -1 }
            ],
            orders: [{ order_id: "SO-1", ship_by_in_days: null, lines: [{ sku_id: "MILK", qty: 7 }] }]
          }
          const { outcomes, violations } = yield* play(yield* systemActor(site), state, [
            { _tag: "Receive", sku: 0, qty: 3, expiry_in_days: 2 },
            { _tag: "CreateWave" },
            { _tag: "StartWave", wave: 0 },
            { _tag: "Adjust", content: 1, qty: -5 },
            { _tag: "ConfirmTask", task: 0, picked: null },
            { _tag: "ConfirmTask", task: 0, picked: 1 },
            { _tag: "Ship", order: 0 },
            { _tag: "AddOrder", sku: 0, qty: 1 },
            { _tag: "DeleteWave", wave: 0 }
          ])
          assert.deepStrictEqual(violations, [])
          assert.deepStrictEqual(outcomes.map((outcome) => outcome._tag), [
            "Done",
            "Done",
            "Done",
            "Refused",
            "Done",
            "Done",
            "Done",
            "Done",
            "Refused"
          ])
        }).pipe(Effect.orDie))
    })
  })
}
