/**
 * Property testing of a warehouse, for the engine's own tests and for its users' suites
 * (`@wms/core/testing`): fast-check arbitraries of valid warehouse states and of operation
 * sequences (`testing/Arbitraries.ts`), the code that plays them on the services and checks every
 * lot's trace at the end (`play`, `testing/Play.ts`), the site's state as its API shows it (`snapshot`, of the records in
 * `testing/Views.ts`), and the invariant checkers: the stock rule, claims, movement tasks, the
 * ledger's replay, conservation, FEFO and allocation at a wave start (`testing/Checkers.ts`), the
 * capacity and occupancy of locations (`testing/Capacity.ts`), one open replenishment per face,
 * no face replenished over its max and FEFO sources (`testing/Replenishment.ts`), and the freeze,
 * ledger and approval threshold of counts (`testing/Counts.ts`), and packing: packed within
 * picked, valid and unique SSCCs, nesting and ship by unit (`checkPacking`, `testing/Packing.ts`),
 * holds: no allocation of held stock and a complete trace of a lot (`checkAllocationAvoidsHolds`,
 * `checkTrace`, `testing/Holds.ts`), and returns: authorized within shipped, received within
 * authorized, their statuses and their ledger rows (`checkReturns`, `testing/Returns.ts`).
 *
 * The arbitraries are built with `fast-check` 3 (a peer dependency: the version effect 3 bundles,
 * so a suite that has effect has it): `import * as fc from "fast-check"`.
 *
 * ```ts
 * fc.assert(fc.asyncProperty(arbWarehouse(), arbOps(), async (state, ops) => {
 *   const { violations } = await wms.run(Effect.flatMap(systemActor(site), (actor) => play(actor, state, ops)))
 *   assert.deepStrictEqual(violations, [])
 * }))
 * ```
 *
 * Every operation refers to records by position (taken modulo what exists when it runs), so any
 * sequence applies to any state; a refusal the rules call for (a 400, 404 or 409) is an outcome,
 * not a failure.
 *
 * The generated warehouses have managed locations with small limits, and the operations include
 * putaway, moves, their confirms and cancels, and status changes: `arbWarehouse({ maxLocations: 0 })`
 * and `arbOps({ weights })` narrow them (a weight of 0 leaves a kind out). Pick faces and counts
 * are opt-in: `arbWarehouse({ maxPickFaces: 2, countThreshold: true })` and
 * `arbOps({ weights: cycleWeights })`.
 *
 * For tests of a service on its own, the ports can be stubbed (`testing/Stubs.ts`):
 * `makeTestLayer(Port)(methods, log)` provides the given methods (any other dies naming itself), a
 * `CallLog` records the calls in order, and `testTransactor` and `makeTestEventPublisher` stand in
 * for a store's transactions and outbox.
 *
 * ```ts
 * const log = new CallLog()
 * const orders = Orders.Default.pipe(Layer.provide([
 *   makeTestLayer(OrderRepository)({ find: () => Effect.succeed(Option.none()) }, log),
 *   makeTestLayer(OrderAllocations)({}),
 *   makeTestLayer(SiteRepository)({}),
 *   testTransactor(log)
 * ]))
 * ```
 */
// First: the versions of Node.js and effect are checked before the other modules run.
import "./shared/NodeVersion.js"
import "./shared/EffectVersion.js"

export * from "./testing/Arbitraries.js"
export * from "./testing/Capacity.js"
export * from "./testing/Checkers.js"
export * from "./testing/Counts.js"
export * from "./testing/Holds.js"
export * from "./testing/Packing.js"
export * from "./testing/Play.js"
export * from "./testing/Replenishment.js"
export * from "./testing/Returns.js"
export * from "./testing/ShortPicks.js"
export * from "./testing/Snapshot.js"
export * from "./testing/Stubs.js"
export * from "./testing/Transfers.js"
export * from "./testing/Views.js"
