import { assert, describe, it } from "@effect/vitest"
import {
  type CandidateOrder,
  type ClaimRow,
  InventoryRepository,
  OrderRepository,
  type OrderToAllocate,
  Replenishment,
  type StockToAllocate,
  type StoredOrder,
  type StoredWave,
  toOrder,
  type WaveDefinition,
  WaveDefinitions,
  WaveRepository,
  Waves
} from "@wms/core"
import { CallLog, makeTestEventPublisher, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option } from "effect"
import { failure, siteActor } from "./Fixtures.js"

type Repository = Context.Tag.Service<WaveRepository>

const createdAt = "1970-01-01T00:00:00.000Z"

const wave = (fields: Partial<StoredWave> = {}): StoredWave => ({
  id: 5,
  site_id: siteActor.scope.site_id,
  client_id: null,
  status_id: 14,
  criterium_id: 2,
  value: "so-1",
  pick_type: 1,
  autostart: false,
  created_at: createdAt,
  created_by: "user-1",
  ...fields
})

const definition = (fields: Partial<WaveDefinition> = {}): WaveDefinition => ({
  id: 3,
  description: "By order id",
  criterium_id: 2,
  criterium: "Order - Order ID",
  value: "so-1",
  pick_type: 1,
  picktypedescription: "Per order",
  autostart: false,
  site_id: "main",
  ...fields
})

const candidate = (order_ref: number, order_id: string): CandidateOrder => ({
  order_ref,
  order_id,
  client_id: null,
  order_date: null,
  ship_by_date: null,
  customer_name: null,
  customer_town: null,
  carrier_name: null
})

const toAllocate = (order_ref: number, order_id: string, sku_id: string, qty: number): OrderToAllocate => ({
  order_ref,
  order_id,
  client_id: null,
  order_date: null,
  ship_by_date: null,
  ship_dock: null,
  customer_name: null,
  carrier_name: null,
  lines: [{ line: 1, sku_id, qty }]
})

const stock = (content_id: number, loc_id: string, qty: number, expiry_date: string): StockToAllocate => ({
  content_id,
  sku_id: "A",
  client_id: null,
  loc_id,
  tag_id: `T-${content_id}`,
  expiry_date,
  qty,
  qty_allocated: 0,
  qty_tasked_from: 0,
  created_at: createdAt
})

const storedOrder: StoredOrder = {
  header: {
    ref: 7,
    order_id: "SO-1",
    client_id: null,
    order_date: null,
    status_id: 15,
    customer_id: null,
    customer_name: null,
    customer_town: null,
    ship_by_date: null,
    carrier_name: null,
    ship_dock: null,
    created_at: createdAt,
    created_by: "user-1",
    backorder_of: null,
    to_site: null
  },
  lines: [{ line: 1, sku_id: "A", qty: 6, qty_picked: 0, qty_shipped: 0, qty_backordered: 0 }]
}

/**
 * A Released wave 5 of two orders: SO-1 (ref 7) wants 6 of A, which lies at L-LATE (10, expiring
 * later) and L-EARLY (4); SO-2 (ref 8) wants 1 of B, of which there is none.
 */
const startable = (more: Partial<Repository> = {}): Partial<Repository> => ({
  lock: (_, waveId) => Effect.succeed(waveId === 5 ? Option.some(wave()) : Option.none()),
  ordersToAllocate: () => Effect.succeed([toAllocate(7, "SO-1", "A", 6), toAllocate(8, "SO-2", "B", 1)]),
  totals: () => Effect.succeed({ order_count: 2, qty_ordered: 7, qty_allocated: 6 }),
  lockStock: () => Effect.succeed([stock(21, "L-LATE", 10, "2099-12-31"), stock(22, "L-EARLY", 4, "2099-01-31")]),
  defaultDock: () => Effect.succeed("DOCK"),
  insertClaimsets: () => Effect.succeed([31]),
  insertClaims: () => Effect.void,
  setOrderStatuses: () => Effect.void,
  setStatus: () => Effect.void,
  ...more
})

const stockMoves: Partial<Context.Tag.Service<InventoryRepository>> = {
  appendTransactions: () => Effect.void,
  changeAllocation: () => Effect.void
}

/** Runs `f` on a `Waves` service on the stubs given; the events it publishes are returned with its result. */
const withWaves = <A, E>(
  log: CallLog,
  repository: Partial<Repository>,
  f: (waves: Waves) => Effect.Effect<A, E>,
  definitions: Partial<WaveDefinitions> = {}
) => {
  const events = makeTestEventPublisher()
  return Effect.flatMap(Waves, f).pipe(
    Effect.map((result) => ({ result, events: events.published })),
    Effect.provide(Waves.Default.pipe(Layer.provide([
      makeTestLayer(WaveRepository)(repository, log),
      makeTestLayer(InventoryRepository)(stockMoves, log),
      makeTestLayer(OrderRepository)({ findMany: () => Effect.succeed([storedOrder]) }, log),
      makeTestLayer(WaveDefinitions)(definitions, log),
      // No pick faces: a wave start triggers no replenishment.
      makeTestLayer(Replenishment)({ afterWaveStart: () => Effect.succeed([]) }),
      events.layer,
      testTransactor(log)
    ])))
  )
}

const claim = (
  id: number,
  content_id: number,
  order_ref: number,
  qty: number,
  status: ClaimRow["status"]
): ClaimRow => ({
  id,
  site_id: siteActor.scope.site_id,
  client_id: null,
  wave_id: 5,
  claimset_id: 31,
  content_id,
  order_ref,
  order_id: `SO-${order_ref}`,
  line_id: 1,
  sku_id: "A",
  qty,
  status,
  tag_id: `T-${content_id}`,
  from_loc_id: `L-${content_id}`,
  to_loc_id: "DOCK",
  final_loc_id: "DOCK",
  created_at: createdAt
})

describe("Waves", () => {
  it.effect("create takes the candidate orders that match the definition into a new Released wave", () => {
    const log = new CallLog()
    const repository: Partial<Repository> = {
      candidateOrders: () => Effect.succeed([candidate(7, "SO-1"), candidate(8, "SO-2")]),
      insert: () => Effect.succeed(5),
      attachOrders: () => Effect.void
    }
    return Effect.gen(function*() {
      const { result } = yield* withWaves(
        log,
        repository,
        (waves) => waves.create(siteActor, 3),
        { getWaveDefinition: () => Effect.succeed(definition()) }
      )
      assert.deepStrictEqual(result, { message: "Wave met id 5 is aangemaakt", wave_id: 5 })
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "WaveDefinitions.getWaveDefinition",
        "WaveRepository.candidateOrders",
        "WaveRepository.insert",
        "WaveRepository.attachOrders",
        "Transactor.commit"
      ])
      const { id: _, ...fields } = wave()
      assert.deepStrictEqual(log.argsOf("WaveRepository.insert"), [[fields]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.attachOrders"), [[5, [7]]])
    })
  })

  it.effect("create of a wave no order matches says so and never starts it, autostart or not", () => {
    const log = new CallLog()
    const repository: Partial<Repository> = {
      candidateOrders: () => Effect.succeed([candidate(8, "SO-2")]),
      insert: () => Effect.succeed(5),
      attachOrders: () => Effect.void
    }
    return Effect.gen(function*() {
      const { result } = yield* withWaves(
        log,
        repository,
        (waves) => waves.create(siteActor, 3),
        { getWaveDefinition: () => Effect.succeed(definition({ autostart: true })) }
      )
      assert.deepStrictEqual(result, { message: "Wave met id 5 is aangemaakt maar bevat geen orders", wave_id: 5 })
      assert.deepStrictEqual(log.argsOf("WaveRepository.attachOrders"), [[5, []]])
      assert.isFalse(log.methods.includes("WaveRepository.lock"))
    })
  })

  it.effect("create from an autostart definition starts the wave in the same transaction", () => {
    const log = new CallLog()
    const repository = startable({
      candidateOrders: () => Effect.succeed([candidate(7, "SO-1"), candidate(8, "SO-2")]),
      insert: () => Effect.succeed(5),
      attachOrders: () => Effect.void
    })
    return Effect.gen(function*() {
      const { events, result } = yield* withWaves(
        log,
        repository,
        (waves) => waves.create(siteActor, 3),
        { getWaveDefinition: () => Effect.succeed(definition({ autostart: true, value: "SO-1" })) }
      )
      assert.deepStrictEqual(result, { message: "Wave met id 5 wordt aangemaakt en automatisch gestart", wave_id: 5 })
      assert.deepStrictEqual(log.argsOf("WaveRepository.setStatus"), [[5, 15]])
      assert.deepStrictEqual(events.map((event) => event.event_type), ["order_allocated", "wave_started"])
      assert.deepStrictEqual(log.methods.filter((method) => method.startsWith("Transactor")), [
        "Transactor.begin",
        "Transactor.commit"
      ])
    })
  })

  it.effect("start writes the plan: claimsets, claims with their Allocate entries, allocation, statuses", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      const { result } = yield* withWaves(log, startable(), (waves) => waves.start(siteActor, 5))
      assert.deepStrictEqual(result, { message: "Wave met id 5 is gestart" })
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "WaveRepository.lock",
        "WaveRepository.ordersToAllocate",
        "WaveRepository.totals",
        "WaveRepository.lockStock",
        "WaveRepository.defaultDock",
        "WaveRepository.insertClaimsets",
        "WaveRepository.insertClaims",
        "InventoryRepository.appendTransactions",
        "InventoryRepository.changeAllocation",
        "WaveRepository.setOrderStatuses",
        "WaveRepository.setStatus",
        "OrderRepository.findMany",
        "WaveRepository.totals",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("WaveRepository.lockStock"), [["main", ["A", "B"]]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.insertClaimsets"), [[5, [{
        claimset_break: "SO-1",
        pick_type: "Per order"
      }]]])
      // First expiry first out: the 4 of L-EARLY, then 2 of L-LATE, to the default dock.
      const { id: _a, ...early } = claim(0, 22, 7, 4, "allocated")
      const { id: _b, ...late } = claim(0, 21, 7, 2, "allocated")
      const claims = [
        { ...early, order_id: "SO-1", from_loc_id: "L-EARLY" },
        { ...late, order_id: "SO-1", from_loc_id: "L-LATE" }
      ]
      // The start writes instances of its own classes (see Start.ts): their fields are compared.
      const fieldsOf = (args: ReadonlyArray<ReadonlyArray<unknown>>) =>
        args.map(([rows]) => [(rows as ReadonlyArray<object>).map((row) => ({ ...row }))])
      assert.deepStrictEqual(fieldsOf(log.argsOf("WaveRepository.insertClaims")), [[claims]])
      assert.deepStrictEqual(fieldsOf(log.argsOf("InventoryRepository.appendTransactions")), [[claims.map((c) => ({
        site_id: "main",
        client_id: null,
        created_at: createdAt,
        transaction_type: "Allocate",
        content_id: c.content_id,
        from_loc_id: c.from_loc_id,
        to_loc_id: "DOCK",
        final_loc_id: "DOCK",
        sku_id: "A",
        qty: c.qty,
        tag_id: c.tag_id,
        order_id: "SO-1",
        line_id: 1,
        notes: "Wave 5",
        from_content_id: null,
        reason_code: null
      }))]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.changeAllocation"), [[new Map([[22, 4], [21, 2]])]])
      // SO-2 found no stock: it stays Released.
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 15], [8, 14]])]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setStatus"), [[5, 15]])
    })
  })

  it.effect("start publishes order_allocated for each order that got stock, then wave_started with the totals", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const { events } = yield* withWaves(log, startable(), (waves) => waves.start(siteActor, 5))
      assert.deepStrictEqual(log.argsOf("OrderRepository.findMany"), [[[7]]])
      assert.deepStrictEqual(events, [
        { event_type: "order_allocated", site_id: "main", client_id: null, data: toOrder(storedOrder, "UTC") },
        {
          event_type: "wave_started",
          site_id: "main",
          client_id: null,
          data: {
            id: 5,
            status: "Allocated",
            status_id: 15,
            criterium: "Order - Order ID",
            criterium_id: 2,
            value: "so-1",
            picktypedescription: "Per order",
            pick_type: 1,
            autostart: false,
            site_id: "main",
            order_count: 2,
            qty_ordered: 7,
            qty_allocated: 6,
            qty_short: 1
          }
        }
      ])
    }))

  it.effect("start of a wave without orders says so and writes nothing", () => {
    const log = new CallLog()
    const repository = startable({
      ordersToAllocate: () => Effect.succeed([]),
      totals: () => Effect.succeed({ order_count: 0, qty_ordered: 0, qty_allocated: 0 })
    })
    return Effect.gen(function*() {
      const { events, result } = yield* withWaves(log, repository, (waves) => waves.start(siteActor, 5))
      assert.deepStrictEqual(result, { message: "Geen orders in deze wave" })
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "WaveRepository.lock",
        "WaveRepository.ordersToAllocate",
        "WaveRepository.totals",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(events, [])
    })
  })

  it.effect("start of a wave that is not Released is a 409; of a missing wave a 404; neither writes", () =>
    Effect.gen(function*() {
      for (const status_id of [15, 17, 20] as const) {
        const log = new CallLog()
        const started = startable({ lock: () => Effect.succeed(Option.some(wave({ status_id }))) })
        assert.deepStrictEqual(
          yield* failure(withWaves(log, started, (waves) => waves.start(siteActor, 5))),
          ["WaveStarted", "Wave met id 5 is al gestart"]
        )
        assert.deepStrictEqual(log.methods, ["Transactor.begin", "WaveRepository.lock", "Transactor.rollback"])
      }
      assert.deepStrictEqual(
        yield* failure(withWaves(new CallLog(), startable(), (waves) => waves.start(siteActor, 9))),
        ["WaveNotFound", "Wave met id 9 niet gevonden"]
      )
    }))

  it.effect("remove gives every open claim back: Deallocate entries, allocation, claims gone, orders Released", () => {
    const log = new CallLog()
    const claims = [
      claim(41, 22, 7, 4, "allocated"),
      claim(42, 21, 7, 2, "allocated"),
      claim(43, 22, 8, 1, "allocated")
    ]
    const repository = startable({
      lockClaims: () => Effect.succeed(claims),
      deleteClaims: () => Effect.void,
      remove: () => Effect.void
    })
    return Effect.gen(function*() {
      yield* withWaves(log, repository, (waves) => waves.remove(siteActor, 5))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "WaveRepository.lock",
        "WaveRepository.lockClaims",
        "InventoryRepository.changeAllocation",
        "InventoryRepository.appendTransactions",
        "WaveRepository.deleteClaims",
        "WaveRepository.setOrderStatuses",
        "WaveRepository.remove",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("WaveRepository.lockClaims"), [[{ waveId: 5 }]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.changeAllocation"), [[new Map([[22, -5], [21, -2]])]])
      const [entries] = log.argsOf("InventoryRepository.appendTransactions")[0] as [
        ReadonlyArray<{ transaction_type: string; content_id: number; qty: number; order_id: string; notes: string }>
      ]
      assert.deepStrictEqual(
        entries.map((e) => [e.transaction_type, e.content_id, e.qty, e.order_id, e.notes]),
        [["Deallocate", 22, 4, "SO-7", "Wave 5"], ["Deallocate", 21, 2, "SO-7", "Wave 5"], [
          "Deallocate",
          22,
          1,
          "SO-8",
          "Wave 5"
        ]]
      )
      assert.deepStrictEqual(log.argsOf("WaveRepository.deleteClaims"), [[[41, 42, 43]]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 14], [8, 14]])]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.remove"), [[5]])
    })
  })

  it.effect("once picking has started a wave cannot be removed: 409, nothing given back", () =>
    Effect.gen(function*() {
      const cases = [
        { status_id: 17 as const, claims: [claim(41, 22, 7, 4, "picked"), claim(42, 21, 7, 2, "allocated")] },
        // Every task confirmed with nothing picked leaves no claim, but the wave is In Progress.
        { status_id: 17 as const, claims: [] },
        { status_id: 15 as const, claims: [claim(41, 22, 7, 4, "picked")] }
      ]
      for (const { claims, status_id } of cases) {
        const log = new CallLog()
        const repository = startable({
          lock: () => Effect.succeed(Option.some(wave({ status_id }))),
          lockClaims: () => Effect.succeed(claims)
        })
        assert.deepStrictEqual(
          yield* failure(withWaves(log, repository, (waves) => waves.remove(siteActor, 5))),
          ["WavePickingStarted", "Wave met id 5 kan niet worden verwijderd: het picken is begonnen"]
        )
        assert.deepStrictEqual(log.methods.slice(-2), ["WaveRepository.lockClaims", "Transactor.rollback"])
      }
    }))

  it.effect("remove of a Released wave without claims removes it, writing no ledger entry", () => {
    const log = new CallLog()
    const repository = startable({ lockClaims: () => Effect.succeed([]), remove: () => Effect.void })
    return Effect.gen(function*() {
      yield* withWaves(log, repository, (waves) => waves.remove(siteActor, 5))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "WaveRepository.lock",
        "WaveRepository.lockClaims",
        "WaveRepository.remove",
        "Transactor.commit"
      ])
    })
  })

  it.effect("releaseOrder gives back the open claims of an order; once one is picked it is a 409", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const open = startable({
        lockClaims: () => Effect.succeed([claim(41, 22, 7, 4, "allocated")]),
        deleteClaims: () => Effect.void
      })
      yield* withWaves(log, open, (waves) => waves.releaseOrder("SO-7", 7))
      assert.deepStrictEqual(log.argsOf("WaveRepository.lockClaims"), [[{ orderRef: 7 }]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.changeAllocation"), [[new Map([[22, -4]])]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.deleteClaims"), [[[41]]])
      assert.deepStrictEqual(log.argsOf("WaveRepository.setOrderStatuses"), [[new Map([[7, 14]])]])

      const picked = new CallLog()
      const started = startable({
        lockClaims: () => Effect.succeed([claim(41, 22, 7, 4, "picked"), claim(42, 21, 7, 2, "allocated")])
      })
      assert.deepStrictEqual(
        yield* failure(withWaves(picked, started, (waves) => waves.releaseOrder("SO-7", 7))),
        ["OrderPickingStarted", "Order with OrderID SO-7 cannot be deleted: picking has started"]
      )
      assert.deepStrictEqual(picked.methods, ["WaveRepository.lockClaims"])
    }))
})
