import { assert, describe, layer } from "@effect/vitest"
import { ensureSite, systemActor } from "@wms/core"
import {
  applyOp,
  arbOps,
  arbWarehouse,
  checkCountLedger,
  checkFreeze,
  checkNeverOverMax,
  checkOneOpenReplenishment,
  checkReplenishmentFefo,
  checkThreshold,
  cycleWeights,
  type Op,
  type OpKind,
  opKinds,
  play,
  seed,
  shortPickWeights,
  snapshot,
  type WarehouseState
} from "@wms/core/testing"
import { Warehouse } from "@wms/http"
import { Clock, Effect, Layer } from "effect"
import * as fc from "fast-check"
import { onBothStores } from "../../../testing/databases.js"
import { propertyRuns, scaledTimeout, turnEventLoop } from "../../../testing/properties.js"

// The services on each store, on the real clock: expiry is judged against today.
const stores = onBothStores((db) =>
  Warehouse.layer({ database: db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url }).pipe(
    Layer.provide(Layer.setClock(Clock.make()))
  )
)

let run = 0

// A property's runs took 50 s on PostgreSQL on a loaded machine (load 15), near vitest's default of 60.
const propertyTimeout = scaledTimeout(240_000)

// A pick face and its reserve: P-01, and S-01 holding 8 expiring in 5 days and 6 in 20; counts
// over 2 units off wait for approval.
const faceAndReserve: WarehouseState = {
  locations: [
    { loc_id: "S-01", loc_type: "Storage", zone: null, sequence: 1, max_tags: null, max_weight: null },
    { loc_id: "P-01", loc_type: "PickFace", zone: null, sequence: 1, max_tags: null, max_weight: null }
  ],
  skus: [{ sku_id: "MILK", expiry_days: 30 }],
  contents: [
    { sku_id: "MILK", loc_id: "S-01", qty: 8, expiry_in_days: 5 },
    { sku_id: "MILK", loc_id: "S-01", qty: 6, expiry_in_days: 20 }
  ],
  orders: [],
  count_variance_threshold: { percent: null, units: 2 }
}

// JAM at A-01 (5, the older) and A-02 (2), and an order of 6: a wave claims 5 and 1.
const jamAndOrder: WarehouseState = {
  locations: [],
  skus: [{ sku_id: "JAM", expiry_days: null }],
  contents: [
    { sku_id: "JAM", loc_id: "A-01", qty: 5, expiry_in_days: null },
    { sku_id: "JAM", loc_id: "A-02", qty: 2, expiry_in_days: null }
  ],
  orders: [{ order_id: "SO-1", ship_by_in_days: null, lines: [{ sku_id: "JAM", qty: 6 }] }]
}

/** Seeds the state and plays the operations on a site of their own. */
const playOnNewSite = (prefix: string, state: WarehouseState, ops: ReadonlyArray<Op>) =>
  Effect.gen(function*() {
    // A site per run: runs share the database, never their stock.
    const site = `${prefix}-${++run}`
    yield* ensureSite(site)
    return yield* play(yield* systemActor(site), state, ops)
  })

/** A property: the operations played on a site of their own keep every invariant `play` checks, throughout. */
const holdsThroughout = (prefix: string) => ([state, ops]: readonly [WarehouseState, ReadonlyArray<Op>]) =>
  Effect.gen(function*() {
    yield* turnEventLoop
    const { outcomes, violations } = yield* playOnNewSite(prefix, state, ops)
    assert.deepStrictEqual(violations, [])
    assert.strictEqual(outcomes.length, ops.length)
  }).pipe(Effect.orDie)

// Wave starts on stock that putaway, moves, their confirms and status changes keep busy: no picks,
// adjustments or cancels in between.
const racingWaves = arbOps({
  minLength: 10,
  maxLength: 25,
  weights: { Adjust: 0, DeleteWave: 0, ConfirmTask: 0, Ship: 0, CancelMove: 0, StartWave: 4 }
})

const only = (kinds: Partial<Record<OpKind, number>>) => ({
  ...Object.fromEntries(opKinds.map((kind) => [kind, 0])),
  ...kinds
})

// Short picks need tasks: the settings set, and a wave of the seeded orders started, before the rest.
const shortPicking = fc.tuple(
  arbOps({ minLength: 1, maxLength: 1, weights: only({ SetShortPicks: 1 }) }),
  arbOps({ minLength: 10, maxLength: 25, weights: shortPickWeights })
).map(([settings, ops]): ReadonlyArray<Op> => [
  ...settings,
  { _tag: "CreateWave" },
  { _tag: "StartWave", wave: 0 },
  ...ops
])

// A count from creation on: released, recorded, then approved, recounted, recorded again or
// cancelled (each may be refused, or find the count in another state).
const countLife = fc.tuple(
  arbOps({ minLength: 1, maxLength: 1, weights: only({ CreateCount: 1 }) }),
  arbOps({ minLength: 1, maxLength: 1, weights: only({ ReleaseCount: 1 }) }),
  arbOps({ minLength: 1, maxLength: 2, weights: only({ RecordCount: 1 }) }),
  arbOps({ minLength: 0, maxLength: 3, weights: only({ ApproveCount: 3, Recount: 1, RecordCount: 2, CancelCount: 1 }) })
).map((steps) => steps.flat())

/** `a` and `b` merged at random, each in its order. */
const interleave = <A>(a: ReadonlyArray<A>, b: ReadonlyArray<A>) =>
  fc.array(fc.boolean(), { minLength: a.length + b.length, maxLength: a.length + b.length }).map(
    (fromA) => {
      let i = 0
      let j = 0
      return fromA.map((takeA) => (takeA && i < a.length) || j >= b.length ? a[i++] : b[j++])
    }
  )

// Pick faces and counts among receipts, picks, moves and status changes: wave starts and pick
// confirms trigger replenishment too, and confirmations land in counted locations. A face or two
// is set first, so that what follows has faces to fill, and counts run their course among the rest.
const cycle = fc.tuple(
  arbOps({ minLength: 1, maxLength: 2, weights: only({ SetPickFace: 1 }) }),
  arbOps({
    minLength: 8,
    maxLength: 18,
    weights: { ...cycleWeights, Ship: 0, DeleteWave: 0, StartWave: 5, ConfirmTask: 5, AddOrder: 3 }
  }),
  fc.array(countLife, { minLength: 1, maxLength: 2 })
).chain(([faces, ops, counts]) => interleave(ops, counts.flat()).map((mixed) => [...faces, ...mixed]))
const cycleWarehouse = arbWarehouse({ maxPickFaces: 2, maxSkus: 2, countThreshold: true })

for (const [label, services] of stores) {
  describe(`the engine under generated operations on ${label}`, () => {
    layer(services, { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect.prop(
        "keeps the stock rule, claims, tasks, the replay, conservation, capacity and FEFO through any sequence",
        [arbWarehouse(), arbOps({ minLength: 10, maxLength: 25 })],
        holdsThroughout("prop"),
        { timeout: propertyTimeout, fastCheck: { numRuns: propertyRuns(label === "sqlite" ? 25 : 8) } }
      )

      it.effect.prop(
        "never lets a wave start allocate tasked stock, and the ledger replays to the stock throughout",
        [arbWarehouse(), racingWaves],
        // play checks after every start that it took only available stock and none a location
        // keeps in, and after every operation the stock rule, claims, tasks and the replay of
        // qty, qty_allocated and qty_tasked_from.
        holdsThroughout("waves"),
        { timeout: propertyTimeout, fastCheck: { numRuns: propertyRuns(label === "sqlite" ? 15 : 6) } }
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

      it.effect.prop(
        "keeps one open replenishment per face, FEFO sources, the freeze, ledger and threshold of counts through any sequence",
        [cycleWarehouse, cycle],
        // play checks over every operation what replenishment opened and what counts did,
        // besides the invariants of stock, tasks, the replay, conservation and capacity.
        holdsThroughout("faces"),
        { timeout: propertyTimeout, fastCheck: { numRuns: propertyRuns(label === "sqlite" ? 20 : 6) } }
      )

      it.effect.prop(
        "conserves demand per order line and across backorders, and re-allocates by FEFO, through any sequence of short picks",
        [arbWarehouse(), shortPicking],
        // play checks the demand of every line after each operation, and over each short pick
        // that its claims follow FEFO and that it changed stock only by its loss.
        holdsThroughout("short"),
        { timeout: propertyTimeout, fastCheck: { numRuns: propertyRuns(label === "sqlite" ? 15 : 6) } }
      )

      it.effect("plays a short pick that re-allocates what it can and backorders the rest through to the backorder", () =>
        Effect.gen(function*() {
          const site = `shorted-${++run}`
          yield* ensureSite(site)
          const actor = yield* systemActor(site)
          const { outcomes, violations } = yield* play(actor, jamAndOrder, [
            { _tag: "SetShortPicks", reallocate_short_picks: true, backorders: true, count_on_short_pick: false },
            { _tag: "CreateWave" },
            { _tag: "StartWave", wave: 0 },
            // 2 of the 5 at A-01 found: 1 claimed again at A-02, 2 backordered.
            { _tag: "ShortPick", task: 0, picked: 2, reallocate: null, reason_code: "StockOut" },
            { _tag: "ConfirmTask", task: 0, picked: null },
            { _tag: "ConfirmTask", task: 0, picked: null },
            { _tag: "Ship", order: 0 }
          ])
          assert.deepStrictEqual(violations, [])
          assert.deepStrictEqual(outcomes.map((outcome) => outcome._tag), Array(7).fill("Done"))
          const { orders = [] } = yield* snapshot(actor)
          assert.deepStrictEqual(
            orders.map((o) => [o.order_status.id, o.backorder_of ?? null, o.lines.map((l) => [l.qty, l.qty_shipped])]),
            [[19, null, [[6, 4]]], [14, orders[0].order_id, [[2, 0]]]]
          )
        }).pipe(Effect.orDie))

      it.effect("plays pick faces, replenishment and counts through to their end", () =>
        Effect.gen(function*() {
          const { outcomes, violations } = yield* playOnNewSite("counted", faceAndReserve, [
            { _tag: "SetPickFace", sku: 0, face: 0, min_qty: 5, span: 5, replenish_multiple: null },
            // Level 0 of min 5: 10 from S-01, FEFO: the 8 expiring first, then 2 of the 6.
            { _tag: "Replenish", sku: null },
            // One open replenishment per face: nothing more.
            { _tag: "Replenish", sku: 0 },
            // Locations by position: 0 P-01, 1 S-01.
            { _tag: "CreateCount", location: 1, sku: null, blind: true },
            { _tag: "CreateCount", location: 1, sku: 0, blind: false },
            { _tag: "ReleaseCount", count: 0 },
            // Tasked before the release: confirmed, in flight against the count.
            { _tag: "ConfirmMove", task: 0, qty: null, to: null },
            // The 8 gone as the count knows; the 6 not counted, so 0: 6 off, over 2 units.
            { _tag: "RecordCount", count: 0, lines: [{ line: 0, counted: "expected", by: 1 }] },
            { _tag: "ApproveCount", count: 0, reason_code: "Other", admin: false },
            { _tag: "Recount", count: 0 },
            // Counted again: 7 of the 6, within 2 units: Complete at once.
            { _tag: "RecordCount", count: 0, lines: [{ line: 0, counted: "more", by: 1 }] },
            { _tag: "CreateCount", location: 1, sku: 0, blind: false },
            { _tag: "ReleaseCount", count: 0 },
            // 5 short and 2 found under a new tag: over the threshold, approved.
            {
              _tag: "RecordCount",
              count: 0,
              lines: [{ line: 0, counted: "less", by: 5 }, { line: 0, counted: "found", by: 2 }]
            },
            { _tag: "ApproveCount", count: 0, reason_code: "Damaged", admin: true },
            { _tag: "CreateCount", location: 0, sku: null, blind: false },
            { _tag: "CancelCount", count: 0 }
          ])
          assert.deepStrictEqual(violations, [])
          assert.deepStrictEqual(outcomes.map((outcome) => outcome._tag), [
            "Done",
            "Done",
            "Done",
            "Done",
            "Refused",
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
            "Done",
            "Done"
          ])
        }).pipe(Effect.orDie))

      it.effect("the checkers of faces and counts report corrupted snapshots of a real site", () =>
        Effect.gen(function*() {
          const site = `mutations-${++run}`
          yield* ensureSite(site)
          const actor = yield* systemActor(site)
          const world = yield* seed(actor, faceAndReserve)
          const step = (op: Op) => Effect.zipRight(applyOp(world, op), snapshot(actor))
          const today = new Date().toISOString().slice(0, 10)
          const isAdmin = (userId: string) => userId === actor.userId

          const set = yield* step({
            _tag: "SetPickFace",
            sku: 0,
            face: 0,
            min_qty: 5,
            span: 5,
            replenish_multiple: null
          })
          const replenished = yield* step({ _tag: "Replenish", sku: null })
          assert.deepStrictEqual(checkOneOpenReplenishment(set.tasks, replenished), [])
          assert.deepStrictEqual(checkNeverOverMax(set.tasks, replenished), [])
          assert.deepStrictEqual(checkReplenishmentFefo(set.tasks, replenished, today), [])
          // The face filled one over its max.
          const [filled] = replenished.faces
          assert.deepStrictEqual(
            checkNeverOverMax(set.tasks, { ...replenished, faces: [{ ...filled, level: filled.max_qty + 1 }] }),
            [`pick face of ${filled.sku_id} at ${filled.loc_id} replenished to level ${
              filled.max_qty + 1
            }, over its max ${filled.max_qty}`]
          )
          const [first, second] = replenished.tasks.filter((t) => t.task_type === "Replenish")
          // A second replenishment of the face while the first is Open.
          assert.lengthOf(
            checkOneOpenReplenishment(replenished.tasks, {
              ...replenished,
              tasks: [...replenished.tasks, { ...first, id: first.id + 1_000 }]
            }),
            1
          )
          // The later-expiring source taken while the first one kept its stock.
          const untasked = replenished.contents.map((c) =>
            c.content_id === first.content_id ? { ...c, qty_tasked_from: 0 } : c
          )
          assert.deepStrictEqual(
            checkReplenishmentFefo(set.tasks, { ...replenished, contents: untasked }, today),
            [
              `replenishment task ${second.id} takes content ${second.content_id} while content ${first.content_id} comes first and has stock`
            ]
          )

          yield* step({ _tag: "CreateCount", location: 1, sku: null, blind: false })
          const released = yield* step({ _tag: "ReleaseCount", count: 0 })
          assert.deepStrictEqual(checkFreeze(released, released), [])
          // A task opened from the frozen location, and stock there changed past the count.
          assert.lengthOf(
            checkFreeze(released, {
              ...released,
              tasks: [...released.tasks, { ...first, id: first.id + 1_000, from_loc_id: "S-01" }]
            }),
            1
          )
          const changed = released.contents.map((c) =>
            c.content_id === second.content_id ? { ...c, qty: c.qty + 1 } : c
          )
          assert.lengthOf(checkFreeze(released, { ...released, contents: changed }), 1)
          const allocated = released.contents.map((c) =>
            c.content_id === second.content_id ? { ...c, qty_allocated: 1 } : c
          )
          assert.lengthOf(checkFreeze(released, { ...released, contents: allocated }), 1)

          // 1 more of each line: within 2 units, Complete at once with a Count row per line.
          const completed = yield* step({
            _tag: "RecordCount",
            count: 0,
            lines: [{ line: 0, counted: "more", by: 1 }, { line: 1, counted: "more", by: 1 }]
          })
          assert.deepStrictEqual(completed.counts.map((count) => count.status_id), [20])
          assert.deepStrictEqual(checkCountLedger(released, completed), [])
          assert.deepStrictEqual(checkThreshold(completed.counts, completed.transactions, isAdmin), [])
          const recounted = completed.contents.map((c) =>
            c.content_id === second.content_id ? { ...c, qty: c.qty - 1 } : c
          )
          assert.isNotEmpty(checkCountLedger(released, { ...completed, contents: recounted }))
          const rowLost = completed.transactions.filter((_, i, all) =>
            i !== all.findIndex((row) => row.transaction_type === "Count")
          )
          assert.lengthOf(checkCountLedger(released, { ...completed, transactions: rowLost }), 1)
          // Count rows of a count that is not Complete.
          assert.lengthOf(
            checkThreshold(
              completed.counts.map((count) => ({ ...count, status_id: 22 })),
              completed.transactions,
              isAdmin
            ),
            1
          )

          yield* step({ _tag: "CreateCount", location: 1, sku: null, blind: false })
          yield* step({ _tag: "ReleaseCount", count: 0 })
          // The 9 with 8 tasked to the face as expected, 5 short of the 7: over 2 units.
          const pending = yield* step({
            _tag: "RecordCount",
            count: 0,
            lines: [{ line: 0, counted: "expected", by: 1 }, { line: 1, counted: "less", by: 5 }]
          })
          assert.deepStrictEqual(pending.counts.map((count) => count.status_id), [20, 23])
          const approved = yield* step({ _tag: "ApproveCount", count: 0, reason_code: "Damaged", admin: true })
          assert.deepStrictEqual(checkCountLedger(pending, approved), [])
          assert.deepStrictEqual(checkThreshold(approved.counts, approved.transactions, isAdmin), [])
          // Over the threshold: applied without an approval, or by a user who is no admin.
          const unapproved = approved.counts.map((count) => ({ ...count, approved_by: null }))
          assert.lengthOf(checkThreshold(unapproved, approved.transactions, isAdmin), 1)
          assert.lengthOf(checkThreshold(approved.counts, approved.transactions, () => false), 1)
        }).pipe(Effect.orDie))
    })
  })
}
