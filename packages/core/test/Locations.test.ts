import { assert, describe, it } from "@effect/vitest"
import {
  LocationRepository,
  Locations,
  type LocationUpdate,
  type LocationWithOccupancy,
  type NewLocation,
  SiteRepository
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { Effect, Layer, Option } from "effect"
import { clientActor, failure, location, siteActor } from "./Fixtures.js"

interface Store {
  readonly stored?: ReadonlyArray<LocationWithOccupancy>
  readonly holdsStock?: boolean
}

const withLocations = <A, E>(log: CallLog, store: Store, f: (locations: Locations) => Effect.Effect<A, E>) => {
  const stored = [...(store.stored ?? [])]
  const find = (locId: string) => Option.fromNullable(stored.find((l) => l.loc_id === locId))
  return Effect.flatMap(Locations, f).pipe(Effect.provide(Locations.Default.pipe(Layer.provide([
    makeTestLayer(LocationRepository)({
      list: () => Effect.succeed(stored),
      find: (_, locId) => Effect.succeed(find(locId)),
      insert: (l) =>
        Effect.sync(() =>
          Option.isNone(find(l.loc_id)) && stored.push(location({ ...l, occupancy: { qty_on_hand: 2 } })) > 0
        ),
      update: (l) => Effect.succeed(Option.isSome(find(l.loc_id))),
      holdsStockOrTasks: () => Effect.succeed(store.holdsStock ?? false),
      remove: () => Effect.void
    }, log),
    makeTestLayer(SiteRepository)({ clientOfSite: (_, clientId) => Effect.succeed(clientId === "c1") }, log),
    testTransactor(log)
  ]))))
}

const input = (fields: Partial<NewLocation> = {}): NewLocation => ({
  loc_id: "S-01",
  loc_type: "Storage",
  description: null,
  zone: null,
  sequence: 0,
  max_tags: null,
  max_weight: null,
  max_volume: null,
  status: "Active",
  client_id: null,
  ...fields
})

const update = (fields: Partial<LocationUpdate> = {}): LocationUpdate => {
  const { loc_id: _, ...rest } = input()
  return { ...rest, ...fields }
}

describe("Locations", () => {
  it.effect("create stores the location and answers it with its occupancy: stock may lie at the id already", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      const record = yield* withLocations(
        log,
        {},
        (locations) => locations.create(siteActor, input({ loc_type: "PickFace", zone: "Z1", max_tags: 1 }))
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "LocationRepository.insert",
        "LocationRepository.find",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("LocationRepository.insert"), [[{
        site_id: "main",
        loc_id: "S-01",
        description: null,
        loc_type: "PickFace",
        zone: "Z1",
        sequence: 0,
        max_tags: 1,
        max_weight: null,
        max_volume: null,
        status: "Active",
        client_id: null
      }]])
      assert.deepStrictEqual(record, {
        loc_id: "S-01",
        description: null,
        loc_type: "PickFace",
        zone: "Z1",
        pick_face: true,
        sequence: 0,
        max_tags: 1,
        max_weight: null,
        max_volume: null,
        status: "Active",
        client_id: null,
        qty_on_hand: 2,
        tags: 0,
        weight: 0,
        volume: 0,
        inbound_qty: 0,
        inbound_tags: 0,
        over_capacity: false,
        last_counted: null
      })
    })
  })

  it.effect("create refuses a client not of the site, the Counting status and a duplicate id", () =>
    Effect.gen(function*() {
      const create = (fields: Partial<NewLocation>) =>
        failure(withLocations(new CallLog(), { stored: [location()] }, (l) => l.create(siteActor, input(fields))))
      assert.deepStrictEqual(yield* create({ loc_id: "S-02", client_id: "c9" as NewLocation["client_id"] }), [
        "InvalidInput",
        "Invalid field client_id: client c9 does not exist on site main"
      ])
      assert.deepStrictEqual(yield* create({ loc_id: "S-02", status: "Counting" }), [
        "LocationBeingCounted",
        "Location S-02 is being counted"
      ])
      assert.deepStrictEqual(yield* create({}), ["LocationExists", "Location S-01 already exists"])
      // Dedicated to a client of the site: fine.
      const dedicated = yield* withLocations(
        new CallLog(),
        {},
        (l) => l.create(siteActor, input({ client_id: "c1" as NewLocation["client_id"] }))
      )
      assert.strictEqual(dedicated.client_id, "c1")
    }))

  it.effect("every scope of the site reads and writes the same locations, with their occupancy and over capacity", () =>
    Effect.gen(function*() {
      const crowded = location({ loc_id: "S-02", max_tags: 1, occupancy: { tags: 1, inbound_tags: 1, qty_on_hand: 4 } })
      const log = new CallLog()
      const [list, one] = yield* withLocations(
        log,
        { stored: [location(), crowded] },
        (locations) =>
          Effect.zip(
            locations.list(clientActor, { zone: "Z1", limit: 1 }),
            locations.get(clientActor, "S-02")
          )
      )
      assert.deepStrictEqual(log.argsOf("LocationRepository.list"), [["F", { zone: "Z1" }, {
        limit: 1,
        offset: undefined
      }]])
      assert.deepStrictEqual(list.map((l) => [l.loc_id, l.over_capacity]), [["S-01", false], ["S-02", true]])
      assert.deepStrictEqual([one.qty_on_hand, one.tags, one.inbound_tags, one.pick_face], [4, 1, 1, false])
      assert.deepStrictEqual(yield* failure(withLocations(new CallLog(), {}, (l) => l.get(siteActor, "NOPE"))), [
        "LocationNotFound",
        "Location with id NOPE not found"
      ])
    }))

  it.effect("replace locks the location and writes every field; Counting, and a re-type of a location in use, are 409s", () =>
    Effect.gen(function*() {
      const replace = (fields: Partial<LocationUpdate>, store: Store = {}, locId = "S-01") => {
        const log = new CallLog()
        return Effect.map(
          Effect.match(
            withLocations(log, { stored: [location()], ...store }, (l) => l.replace(siteActor, locId, update(fields))),
            { onFailure: (e) => [e._tag, e.message], onSuccess: () => ["Done"] }
          ),
          (result) => [...result, log.methods.includes("LocationRepository.update")]
        )
      }
      assert.deepStrictEqual(yield* replace({ status: "Blocked", zone: "Z2" }), ["Done", true])
      assert.deepStrictEqual(yield* replace({ loc_id: "S-01", loc_type: "Staging" }), ["Done", true])
      assert.deepStrictEqual(yield* replace({ loc_id: "S-09" }), [
        "InvalidInput",
        "Invalid field loc_id: must be S-01, the id in the path",
        false
      ])
      assert.deepStrictEqual(yield* replace({}, {}, "NOPE"), [
        "LocationNotFound",
        "Location with id NOPE not found",
        false
      ])
      assert.deepStrictEqual(yield* replace({ status: "Counting" }), [
        "LocationBeingCounted",
        "Location S-01 is being counted",
        false
      ])
      assert.deepStrictEqual(yield* replace({}, { stored: [location({ status: "Counting" })] }), [
        "LocationBeingCounted",
        "Location S-01 is being counted",
        false
      ])
      // Stock or open tasks: the type stays; every other field may change.
      assert.deepStrictEqual(yield* replace({ loc_type: "Staging" }, { holdsStock: true }), [
        "LocationInUse",
        "Location S-01 holds stock or open tasks",
        false
      ])
      assert.deepStrictEqual(yield* replace({ max_tags: 3 }, { holdsStock: true }), ["Done", true])
      const log = new CallLog()
      yield* withLocations(log, { stored: [location()] }, (l) => l.replace(siteActor, "S-01", update()))
      assert.deepStrictEqual(log.argsOf("LocationRepository.find"), [["main", "S-01", "update"]])
    }))

  it.effect("remove refuses a location that holds stock or open tasks, or is being counted", () =>
    Effect.gen(function*() {
      const remove = (store: Store, locId = "S-01") => {
        const log = new CallLog()
        return Effect.map(
          Effect.match(withLocations(log, store, (l) => l.remove(siteActor, locId)), {
            onFailure: (e) => [e._tag, e.message],
            onSuccess: () => ["Done"]
          }),
          (result) => [...result, log.argsOf("LocationRepository.remove")]
        )
      }
      assert.deepStrictEqual(yield* remove({ stored: [location()] }), ["Done", [["main", "S-01"]]])
      assert.deepStrictEqual(yield* remove({ stored: [location()], holdsStock: true }), [
        "LocationInUse",
        "Location S-01 holds stock or open tasks",
        []
      ])
      assert.deepStrictEqual(yield* remove({ stored: [location({ status: "Counting" })] }), [
        "LocationBeingCounted",
        "Location S-01 is being counted",
        []
      ])
      assert.deepStrictEqual(yield* remove({}), ["LocationNotFound", "Location with id S-01 not found", []])
    }))
})
