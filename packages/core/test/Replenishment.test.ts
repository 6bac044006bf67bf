import { assert, describe, it } from "@effect/vitest"
import {
  type Content,
  type FaceStock,
  InventoryRepository,
  LocationRepository,
  type LocationWithOccupancy,
  MovementTaskRepository,
  PickFaceRepository,
  PickFaceRoomsLive,
  Replenishment,
  SiteId,
  SkuRepository,
  type StoredPickFace
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { Effect, Layer } from "effect"
import { location, siteActor, sku } from "./Fixtures.js"

/** Replenishment on its ports, with its own side of movement's `PickFaceRooms`. */
const replenishmentLayer = Replenishment.Default.pipe(Layer.provide(PickFaceRoomsLive))

const main = SiteId.make("main")
const setting: StoredPickFace = {
  site_id: main,
  sku_id: "A",
  loc_id: "PF-1",
  min_qty: 5,
  max_qty: 20,
  replenish_multiple: null
}

/** 30 of A in reserve at R-1 (content 7). */
const reserve: Content = {
  content_id: 7,
  site_id: main,
  client_id: null,
  sku_id: "A",
  loc_id: "R-1",
  tag_id: "T-7",
  expiry_date: null,
  created_at: "2030-01-01T00:00:00.000Z",
  qty: 30,
  qty_allocated: 0,
  qty_tasked_from: 0
}

interface World {
  readonly face?: LocationWithOccupancy
  readonly stock?: FaceStock
}

/** Runs `f` on a `Replenishment` service over stubbed ports: face PF-1 of A, the reserve at R-1. */
const withReplenishment = <A, E>(log: CallLog, world: World, f: (r: Replenishment) => Effect.Effect<A, E>) => {
  const face = world.face ?? location({ loc_id: "PF-1", loc_type: "PickFace" })
  const locations = [face, location({ loc_id: "R-1" })]
  let nextTask = 100
  return Effect.flatMap(Replenishment, f).pipe(Effect.provide(replenishmentLayer.pipe(Layer.provide([
    makeTestLayer(PickFaceRepository)({
      findMany: () => Effect.succeed([setting]),
      allocatedByWave: () => Effect.succeed([setting]),
      list: () => Effect.succeed([{ ...setting, qty: 0, qty_allocated: 0, inbound: 0, replenishing: 0 }]),
      lockReserve: () => Effect.succeed([reserve]),
      lockAt: () => Effect.succeed([setting]),
      stockAt: () =>
        Effect.succeed([{
          sku_id: "A",
          loc_id: "PF-1",
          stock: world.stock ?? { qty: 2, qty_allocated: 0, inbound: 0, replenishing: 0 }
        }])
    }, log),
    makeTestLayer(LocationRepository)({
      lockMany: (_, ids) => Effect.succeed(locations.filter((l) => ids.includes(l.loc_id)))
    }, log),
    makeTestLayer(SkuRepository)({ findMany: (_, ids) => Effect.succeed(new Map(ids.map((id) => [id, sku()]))) }, log),
    makeTestLayer(InventoryRepository)(
      { setQuantitiesOf: () => Effect.void, appendTransactions: () => Effect.void },
      log
    ),
    makeTestLayer(MovementTaskRepository)({ insert: (rows) => Effect.sync(() => rows.map(() => nextTask++)) }, log),
    testTransactor(log)
  ]))))
}

describe("Replenishment", () => {
  it.effect("a trigger locks the reserve, then the locations, then the face's settings, and reads the face after them", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const tasks = yield* withReplenishment(
        log,
        {},
        (r) => r.afterChange(siteActor, main, [{ sku_id: "A", loc_id: "PF-1" }])
      )
      assert.deepStrictEqual(tasks, [100])
      assert.deepStrictEqual(log.methods, [
        "PickFaceRepository.findMany",
        "PickFaceRepository.lockReserve",
        "LocationRepository.lockMany",
        "PickFaceRepository.lockAt",
        "LocationRepository.lockMany",
        "SkuRepository.findMany",
        "PickFaceRepository.stockAt",
        "InventoryRepository.setQuantitiesOf",
        "MovementTaskRepository.insert",
        "InventoryRepository.appendTransactions"
      ])
      assert.deepStrictEqual(log.argsOf("LocationRepository.lockMany"), [
        ["main", ["PF-1", "R-1"], "share"],
        ["main", ["PF-1"], "share"]
      ])
      // 18 of the 30 bring the level of 2 to 20.
      const [[quantities]] = log.argsOf("InventoryRepository.setQuantitiesOf")
      assert.deepStrictEqual([...(quantities as ReadonlyMap<number, unknown>).values()], [
        { qty: 30, qty_allocated: 0, qty_tasked_from: 18 }
      ])
      const [[[row]]] = log.argsOf("MovementTaskRepository.insert") as unknown as [
        [[{ task_type: string; qty: number }]]
      ]
      assert.deepStrictEqual([row.task_type, row.qty], ["Replenish", 18])
    }))

  it.effect("opens nothing while a Replenish task of the SKU to the face is Open", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const stock = { qty: 0, qty_allocated: 0, inbound: 3, replenishing: 3 }
      assert.deepStrictEqual(
        yield* withReplenishment(log, { stock }, (r) => r.run(siteActor, { sku_id: null, zone: null })),
        {
          tasks: []
        }
      )
      assert.deepStrictEqual(log.argsOf("MovementTaskRepository.insert"), [])
    }))

  it.effect("replenishes no face that refuses stock in or is no longer a pick face", () =>
    Effect.gen(function*() {
      for (
        const face of [
          location({ loc_id: "PF-1", loc_type: "PickFace", status: "Counting" }),
          location({ loc_id: "PF-1", loc_type: "Storage" })
        ]
      ) {
        const log = new CallLog()
        assert.deepStrictEqual(yield* withReplenishment(log, { face }, (r) => r.afterWaveStart(siteActor, main, 1)), [])
      }
    }))
})
