import { assert, describe, layer } from "@effect/vitest"
import { ensureSite, systemActor } from "@wms/core"
import { arbOps, arbWarehouse, type Op, play, type WarehouseState } from "@wms/core/testing"
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

/** How often each kind of operation went through, over every run of a store: the generators must reach them all. */
const playOnNewSite = (prefix: string, state: WarehouseState, ops: ReadonlyArray<Op>) =>
  Effect.gen(function*() {
    // A site per run: runs share the database, never their stock.
    const site = `${prefix}-${++run}`
    yield* ensureSite(site)
    return yield* play(yield* systemActor(site), state, ops)
  })

// Wave starts on stock that putaway, moves, their confirms and status changes keep busy: no picks,
// adjustments or cancels in between.
const racingWaves = arbOps({
  minLength: 10,
  maxLength: 25,
  weights: { Adjust: 0, DeleteWave: 0, ConfirmTask: 0, Ship: 0, CancelMove: 0, StartWave: 4 }
})

for (const [label, services] of stores) {
  describe(`the engine under generated operations on ${label}`, () => {
    layer(services, { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect.prop(
        "keeps the stock rule, claims, tasks, the replay, conservation, capacity and FEFO through any sequence",
        [arbWarehouse(), arbOps({ minLength: 10, maxLength: 25 })],
        ([state, ops]) =>
          Effect.gen(function*() {
            const { outcomes, violations } = yield* playOnNewSite("prop", state, ops)
            assert.deepStrictEqual(violations, [])
            assert.strictEqual(outcomes.length, ops.length)
          }).pipe(Effect.orDie),
        { fastCheck: { numRuns: label === "sqlite" ? 40 : 15 } }
      )

      it.effect.prop(
        "never lets a wave start allocate tasked stock, and the ledger replays to the stock throughout",
        [arbWarehouse(), racingWaves],
        ([state, ops]) =>
          Effect.gen(function*() {
            // play checks after every start that it took only available stock and none a location
            // keeps in, and after every operation the stock rule, claims, tasks and the replay of
            // qty, qty_allocated and qty_tasked_from.
            const { outcomes, violations } = yield* playOnNewSite("waves", state, ops)
            assert.deepStrictEqual(violations, [])
            assert.strictEqual(outcomes.length, ops.length)
          }).pipe(Effect.orDie),
        { fastCheck: { numRuns: label === "sqlite" ? 25 : 10 } }
      )

      it.effect("plays every kind of operation through to its end", () =>
        Effect.gen(function*() {
          const state = {
            skus: [{ sku_id: "MILK", expiry_days: 10 }],
            contents: [
              { sku_id: "MILK", loc_id: "A-01", qty: 5, expiry_in_days: 20 },
              { sku_id: "MILK", loc_id: "A-02", qty: 5, expiry_in_days: 5 },
              { sku_id: "MILK", loc_id: "A-02", qty: 9, expiry_in_days: -1 }
            ],
            orders: [{ order_id: "SO-1", ship_by_in_days: null, lines: [{ sku_id: "MILK", qty: 7 }] }]
          }
          const { outcomes, violations } = yield* playOnNewSite("walk", state, [
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

      it.effect("plays putaway, moves, their confirms and cancels, and status changes through to their end", () =>
        Effect.gen(function*() {
          // World locations by position: 0 S-01, 1 S-02, 2 A-01, 3 A-02, 4 B-01, 5 RECEIVING.
          const state: WarehouseState = {
            locations: [
              { loc_id: "S-01", loc_type: "Storage", zone: null, sequence: 1, max_tags: 1, max_weight: null },
              { loc_id: "S-02", loc_type: "Storage", zone: null, sequence: 2, max_tags: null, max_weight: 10 }
            ],
            skus: [{ sku_id: "BOLT", expiry_days: null, each_weight: 2, qty_on_full_pallet: 4 }],
            contents: [{ sku_id: "BOLT", loc_id: "A-01", qty: 6, expiry_in_days: null }],
            orders: [{ order_id: "SO-1", ship_by_in_days: null, lines: [{ sku_id: "BOLT", qty: 2 }] }]
          }
          const { outcomes, violations } = yield* playOnNewSite("cycle", state, [
            // 10 received with putaway: a pallet of 4 to S-01 (its one tag), one to S-02 (8 of 10 kg),
            // and the rest, 2, unplaced (S-01 has a second pallet's tag inbound, S-02 no 4 kg more).
            { _tag: "Receive", sku: 0, qty: 10, expiry_in_days: null, putaway: true },
            // Planned again, the rest goes to S-01: its inbound tag is the received stock's own.
            { _tag: "Putaway", content: 0 },
            // Nothing left to put away: no task, still done.
            { _tag: "Putaway", content: 0 },
            // 3 of A-01 find no room at S-02 (8 kg inbound + 6); to B-01 (unmanaged) they go.
            { _tag: "Move", content: 0, qty: 3, to: 1, by: "content" },
            { _tag: "Move", content: 0, qty: 3, to: 4, by: "sku" },
            // Tasks in id order: pallet → S-01, pallet → S-02, rest → S-02, A-01 → B-01.
            { _tag: "ConfirmMove", task: 0, qty: null, to: null },
            // Partial: 2 of the pallet to S-02, the other 2 released; then the rest's task cancelled.
            { _tag: "ConfirmMove", task: 0, qty: 1, to: null },
            { _tag: "CancelMove", task: 0 },
            // A-01 → B-01 overridden to A-02 (unmanaged).
            { _tag: "ConfirmMove", task: 0, qty: null, to: 3 },
            { _tag: "SetLocationStatus", location: 0, status: "Blocked Out" },
            // S-01 lets nothing out now.
            { _tag: "MoveAll", from: 0, to: 4 },
            { _tag: "SetLocationStatus", location: 0, status: "Active" },
            { _tag: "MoveAll", from: 0, to: 4 },
            { _tag: "ConfirmMove", task: 0, qty: null, to: null },
            { _tag: "CreateWave" },
            { _tag: "StartWave", wave: 0 }
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
            "Done",
            "Done",
            "Refused",
            "Done",
            "Done",
            "Done",
            "Done",
            "Done"
          ])
        }).pipe(Effect.orDie))
    })
  })
}
