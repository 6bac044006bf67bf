import { assert, describe, it } from "@effect/vitest"
import {
  type Content,
  CountInFlightLive,
  CountRepository,
  type HeldBy,
  InventoryRepository,
  LocationRepository,
  type LocationWithOccupancy,
  MovementTaskRepository,
  MovementTasks,
  type NewMovementTask,
  type NewMoveRequest,
  PickFaceRepository,
  PickFaceRoomsLive,
  ReceivingRepository,
  SiteId,
  SkuRepository,
  type StoredMovementTask
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Either, Layer, Option, TestClock } from "effect"
import { failure, location, siteActor, sku } from "./Fixtures.js"

/** MovementTasks on its ports, with the counts' and replenishment's sides of the ports it declares. */
const movementTasksLayer = MovementTasks.Default.pipe(Layer.provide([CountInFlightLive, PickFaceRoomsLive]))

const now = Date.parse("2030-05-01T10:00:00.000Z")
const createdAt = new Date(now).toISOString()
const received = "2030-01-01T00:00:00.000Z"

/** Content 22: 10 of A at L-22 under T-22, 3 of it allocated. */
const content = (fields: Partial<Content> = {}): Content => ({
  content_id: 22,
  site_id: SiteId.make("main"),
  client_id: null,
  sku_id: "A",
  loc_id: "L-22",
  tag_id: "T-22",
  expiry_date: null,
  qty: 10,
  qty_allocated: 3,
  qty_tasked_from: 0,
  created_at: received,
  ...fields
})

/** Task 5: an Open Move of 4 from content 22 at L-22 to L-30. */
const task = (fields: Partial<StoredMovementTask> = {}): StoredMovementTask => ({
  id: 5,
  site_id: "main",
  client_id: null,
  task_type: "Move",
  status_id: 1,
  content_id: 22,
  sku_id: "A",
  tag_id: "T-22",
  qty: 4,
  from_loc_id: "L-22",
  to_loc_id: "L-30",
  final_loc_id: "L-30",
  created_by: "user-1",
  reason: null,
  created_at: received,
  ...fields
})

interface World {
  readonly contents?: ReadonlyArray<Content>
  readonly tasks?: ReadonlyArray<StoredMovementTask>
  readonly managed?: ReadonlyArray<LocationWithOccupancy>
  /** What `close` answers, and whether `complete` finds the task: false when another transaction closed it first. */
  readonly closes?: boolean
  /** The Active holds covering contents, by content id. */
  readonly held?: ReadonlyMap<number, ReadonlyArray<HeldBy>>
}

const withTasks = <A, E>(log: CallLog, world: World, f: (tasks: MovementTasks) => Effect.Effect<A, E>) => {
  const contents = world.contents ?? [content()]
  const tasks = world.tasks ?? [task()]
  const managed = world.managed ?? []
  let nextTask = 60
  const inventory: Partial<Context.Tag.Service<InventoryRepository>> = {
    listContentsAt: (_, locId) =>
      Effect.succeed(
        contents.filter((c) => c.loc_id === locId && c.qty > 0).sort((a, b) => a.content_id - b.content_id)
      ),
    lockContent: (_, id) => Effect.succeed(Option.fromNullable(contents.find((c) => c.content_id === id))),
    lockContentAt: (owner, key) =>
      Effect.succeed(
        Option.fromNullable(contents.find((c) =>
          c.client_id === owner.client_id && c.sku_id === key.sku_id && c.loc_id === key.loc_id &&
          c.tag_id === key.tag_id && c.expiry_date === key.expiry_date
        ))
      ),
    insertContent: () => Effect.succeed(90),
    setQuantities: () => Effect.void,
    setQuantitiesOf: () => Effect.void,
    appendTransaction: () => Effect.succeed(1),
    appendTransactions: () => Effect.void,
    holdsOn: (ids) =>
      Effect.succeed(
        new Map([...(world.held ?? new Map<number, ReadonlyArray<HeldBy>>())].filter(([id]) => ids.includes(id)))
      ),
    carryContentHolds: () => Effect.succeed([])
  }
  return Effect.flatMap(MovementTasks, f).pipe(Effect.provide(movementTasksLayer.pipe(Layer.provide([
    makeTestLayer(InventoryRepository)(inventory, log),
    makeTestLayer(MovementTaskRepository)({
      list: () => Effect.succeed(tasks),
      find: (_, id) => Effect.succeed(Option.fromNullable(tasks.find((t) => t.id === id))),
      insert: (rows) => Effect.sync(() => rows.map(() => nextTask++)),
      close: () => Effect.succeed(world.closes ?? true),
      complete: (_, id) =>
        Effect.succeed(
          world.closes === false
            ? Option.none()
            : Option.map(
              Option.fromNullable(tasks.find((t) => t.id === id && t.status_id === 1)),
              (t) => ({ ...t, status_id: 20 as const })
            )
        ),
      redirect: () => Effect.void
    }, log),
    makeTestLayer(CountRepository)({ addInFlight: () => Effect.void }, log),
    makeTestLayer(LocationRepository)({
      lockMany: (_, ids) => Effect.succeed(managed.filter((l) => ids.includes(l.loc_id))),
      lockManyBare: (_, ids) =>
        Effect.succeed(managed.filter((l) => ids.includes(l.loc_id)).map(({ occupancy: _, ...l }) => l)),
      occupancyOf: (_, ids) => Effect.succeed(ids.map((id) => managed.find((l) => l.loc_id === id)!.occupancy)),
      lockPutawayCandidates: (_, preferred, also = []) =>
        Effect.succeed(
          managed.filter((l) => l.loc_type === "Storage" || l.loc_id === preferred || also.includes(l.loc_id))
        )
    }, log),
    makeTestLayer(SkuRepository)({
      find: (_, skuId) => Effect.succeed(Option.some(sku({ sku_id: skuId, each_weight: 2 }))),
      findMany: (_, skuIds) => Effect.succeed(new Map(skuIds.map((id) => [id, sku({ sku_id: id, each_weight: 2 })])))
    }, log),
    makeTestLayer(ReceivingRepository)({ receivingLocation: () => Effect.succeed("RECEIVING") }, log),
    // No pick faces: putaway plans on storage alone (replenishment's own tests cover faces).
    makeTestLayer(PickFaceRepository)({ ofSkus: () => Effect.succeed([]), lockAt: () => Effect.succeed([]) }),
    testTransactor(log)
  ]))))
}

const moveRequest = (fields: Partial<NewMoveRequest> = {}): NewMoveRequest => ({
  content_id: 22,
  sku_id: null,
  from_loc_id: null,
  tag_id: null,
  qty: 4,
  to_loc_id: "L-30",
  reason: null,
  ...fields
})

/** A ledger entry of content `content_id` at L-22 of SKU A. */
const row = (
  transaction_type: string,
  fields: { content_id?: number; from_content_id?: number; qty: number; to: string; notes: string; tag?: string }
) => ({
  site_id: "main",
  client_id: null,
  created_at: createdAt,
  transaction_type,
  content_id: fields.content_id ?? 22,
  from_loc_id: "L-22",
  to_loc_id: fields.to,
  final_loc_id: fields.to,
  sku_id: "A",
  qty: fields.qty,
  tag_id: fields.tag ?? "T-22",
  order_id: null,
  line_id: null,
  notes: fields.notes,
  from_content_id: fields.from_content_id ?? null,
  reason_code: null
})

/** The content id and the quantities of each content set, by `setQuantities` or `setQuantitiesOf`, in order. */
const quantities = (log: CallLog) =>
  log.calls.flatMap(({ args, method }) =>
    method === "InventoryRepository.setQuantities"
      ? [[args[0], args[1]]]
      : method === "InventoryRepository.setQuantitiesOf"
      ? [...(args[0] as ReadonlyMap<number, Content>)]
      : []
  ).map(([id, q]) => {
    const { qty, qty_allocated, qty_tasked_from } = q as Content
    return [id, { qty, qty_allocated, qty_tasked_from }]
  })

const outcome = <A, E extends { readonly _tag: string; readonly message: string }>(effect: Effect.Effect<A, E>) =>
  Effect.match(effect, { onFailure: (e) => [e._tag, e.message], onSuccess: () => ["Done"] })

describe("MovementTasks", () => {
  it.effect("create locks the content, then both locations in one call, and reserves the stock with a Task entry", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const managed = [location({ loc_id: "L-30", max_weight: 8 })]
      const record = yield* withTasks(
        log,
        { managed },
        (tasks) => tasks.create(siteActor, moveRequest({ reason: "tidy up" }))
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "InventoryRepository.lockContent",
        "LocationRepository.lockManyBare",
        "InventoryRepository.holdsOn",
        "SkuRepository.find",
        "LocationRepository.occupancyOf",
        "InventoryRepository.setQuantitiesOf",
        "MovementTaskRepository.insert",
        "InventoryRepository.appendTransactions",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("LocationRepository.lockManyBare"), [["main", ["L-22", "L-30"], "update"]])
      // Only the destination's occupancy counts, read after its lock.
      assert.deepStrictEqual(log.argsOf("LocationRepository.occupancyOf"), [["main", ["L-30"]]])
      assert.deepStrictEqual(quantities(log), [[22, { qty: 10, qty_allocated: 3, qty_tasked_from: 4 }]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[
        row("Task", { qty: 4, to: "L-30", notes: "Movement task 60" })
      ]]])
      assert.deepStrictEqual(record, {
        id: 60,
        task_type: "Move",
        quantity: 4,
        content_id: 22,
        sku_id: "A",
        tag_id: "T-22",
        from_loc_id: "L-22",
        to_loc_id: "L-30",
        final_loc_id: "L-30",
        creation_date: "2030-05-01",
        creation_datetime: "2030-05-01 10:00:00",
        status: "Open",
        status_id: 1,
        created_by: "user-1",
        reason: "tidy up",
        client_id: null
      })
    })
  })

  it.effect("create refuses what is not available, a source that keeps its stock, a destination that takes none or has no room", () =>
    Effect.gen(function*() {
      const create = (request: Partial<NewMoveRequest>, managed: ReadonlyArray<LocationWithOccupancy> = []) => {
        const log = new CallLog()
        return Effect.map(
          outcome(withTasks(log, { managed }, (tasks) => tasks.create(siteActor, moveRequest(request)))),
          (result) => [...result, log.methods.includes("InventoryRepository.setQuantitiesOf")]
        )
      }
      // Allocated stock is not movable: 7 of the 10 are available.
      assert.deepStrictEqual(yield* create({ qty: 8 }), [
        "ContentUnavailable",
        "Content 22 has 7 available, 8 asked",
        false
      ])
      assert.deepStrictEqual(yield* create({ qty: 7 }), ["Done", true])
      for (const status of ["Blocked Out", "Blocked", "Counting"] as const) {
        assert.deepStrictEqual(yield* create({}, [location({ loc_id: "L-22", status })]), [
          "LocationStatusRefuses",
          `Location L-22 is ${status}`,
          false
        ])
      }
      for (const status of ["Blocked In", "Blocked", "Counting"] as const) {
        assert.deepStrictEqual(yield* create({}, [location({ loc_id: "L-30", status })]), [
          "LocationStatusRefuses",
          `Location L-30 is ${status}`,
          false
        ])
      }
      // 4 of A weigh 8 kg: room for 8 takes them, unless a kg is on hand or on its way.
      const room = (occupancy: Partial<LocationWithOccupancy["occupancy"]>) =>
        create({}, [location({ loc_id: "L-30", max_weight: 8, occupancy })])
      assert.deepStrictEqual(yield* room({}), ["Done", true])
      assert.deepStrictEqual(yield* room({ weight: 1 }), [
        "LocationFull",
        "Location L-30 has no room for 4 of A",
        false
      ])
      assert.deepStrictEqual(yield* room({ inbound_weight: 1 }), [
        "LocationFull",
        "Location L-30 has no room for 4 of A",
        false
      ])
      assert.deepStrictEqual(yield* create({ to_loc_id: "L-22" }), [
        "InvalidInput",
        "Invalid field to_loc_id: is where the stock already is",
        false
      ])
      assert.deepStrictEqual(yield* create({ content_id: 99 }), [
        "ContentNotFound",
        "Inventory content with contentId 99 not found",
        false
      ])
      assert.deepStrictEqual(yield* create({ content_id: null }), ["InvalidInput", "Missing field content_id", false])
      assert.deepStrictEqual(yield* create({ content_id: null, sku_id: "A" }), [
        "InvalidInput",
        "Missing field from_loc_id",
        false
      ])
    }))

  it.effect("create by SKU and location takes the first content in FEFO order whose available covers the quantity", () =>
    Effect.gen(function*() {
      const contents = [
        content({ content_id: 21, expiry_date: null, qty: 50, qty_allocated: 0 }),
        content({ content_id: 22, expiry_date: "2030-06-01", qty: 2, qty_allocated: 0 }),
        content({ content_id: 23, expiry_date: "2030-07-01", qty: 6, qty_allocated: 0, tag_id: "T-23" }),
        content({ content_id: 24, expiry_date: "2030-05-01", qty: 9, qty_allocated: 0, loc_id: "L-99" })
      ]
      const create = (fields: Partial<NewMoveRequest>) => {
        const log = new CallLog()
        const request = moveRequest({ content_id: null, sku_id: "A", from_loc_id: "L-22", ...fields })
        return Effect.map(
          outcome(withTasks(log, { contents }, (tasks) => tasks.create(siteActor, request))),
          (
            result
          ) => [
            ...result,
            log.argsOf("MovementTaskRepository.insert").map(([rows]) => (rows as Array<NewMovementTask>)[0].content_id)
          ]
        )
      }
      assert.deepStrictEqual(yield* create({ qty: 2 }), ["Done", [22]])
      assert.deepStrictEqual(yield* create({ qty: 3 }), ["Done", [23]])
      assert.deepStrictEqual(yield* create({ qty: 7 }), ["Done", [21]])
      assert.deepStrictEqual(yield* create({ qty: 2, tag_id: "T-23" }), ["Done", [23]])
      assert.deepStrictEqual(yield* create({ qty: 51 }), [
        "ContentUnavailable",
        "Content 21 has 50 available, 51 asked",
        []
      ])
      assert.deepStrictEqual(yield* create({ from_loc_id: "L-00" }), [
        "InvalidInput",
        "Invalid field from_loc_id: no stock of SKU A at L-00",
        []
      ])
    }))

  it.effect("confirm locks task, source, destination content, then the locations, and moves the whole task", () => {
    const log = new CallLog()
    const there = content({ content_id: 30, loc_id: "L-30", qty: 1, qty_allocated: 0 })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      yield* withTasks(
        log,
        { contents: [content({ qty_tasked_from: 4 }), there] },
        (tasks) => tasks.confirm(siteActor, 5, { qty: null, to_loc_id: null })
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "MovementTaskRepository.complete",
        "InventoryRepository.lockContent",
        "InventoryRepository.lockContentAt",
        "LocationRepository.lockManyBare",
        "InventoryRepository.setQuantities",
        "InventoryRepository.setQuantities",
        "InventoryRepository.carryContentHolds",
        "InventoryRepository.appendTransactions",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("MovementTaskRepository.complete"), [[siteActor.scope, 5]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.lockContentAt")[0][1], {
        sku_id: "A",
        loc_id: "L-30",
        tag_id: "T-22",
        expiry_date: null
      })
      // Completed where it was planned to go: nothing to redirect.
      assert.deepStrictEqual(log.argsOf("MovementTaskRepository.redirect"), [])
      assert.deepStrictEqual(quantities(log), [
        [22, { qty: 6, qty_allocated: 3, qty_tasked_from: 0 }],
        [30, { qty: 5, qty_allocated: 0, qty_tasked_from: 0 }]
      ])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[
        row("Move", { content_id: 30, from_content_id: 22, qty: 4, to: "L-30", notes: "Movement task 5" })
      ]]])
    })
  })

  it.effect("a partial confirm to another destination moves that much into a new content and releases the rest", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const managed = [location({ loc_id: "L-40", max_weight: 6 })]
      yield* withTasks(
        log,
        { contents: [content({ qty_tasked_from: 4, expiry_date: "2031-01-01" })], managed },
        (tasks) => tasks.confirm(siteActor, 5, { qty: 3, to_loc_id: "L-40" })
      )
      assert.deepStrictEqual(log.argsOf("LocationRepository.lockManyBare"), [["main", ["L-22", "L-40"], "update"]])
      assert.deepStrictEqual(log.argsOf("LocationRepository.occupancyOf"), [["main", ["L-40"]]])
      // The new content keeps the tag, the expiry and the age of the stock: FEFO keeps its place.
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertContent"), [[{
        site_id: "main",
        client_id: null,
        sku_id: "A",
        loc_id: "L-40",
        tag_id: "T-22",
        expiry_date: "2031-01-01",
        qty: 3,
        qty_allocated: 0,
        qty_tasked_from: 0,
        created_at: received
      }]])
      assert.deepStrictEqual(quantities(log), [[22, { qty: 7, qty_allocated: 3, qty_tasked_from: 0 }]])
      assert.deepStrictEqual(log.argsOf("MovementTaskRepository.redirect"), [[5, "L-40"]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[
        row("Move", { content_id: 90, from_content_id: 22, qty: 3, to: "L-40", notes: "Movement task 5" }),
        row("Untask", { qty: 1, to: "L-30", notes: "Movement task 5" })
      ]]])
    })
  })

  it.effect("confirm checks room only at an override; a status that refuses, at either end, refuses it", () =>
    Effect.gen(function*() {
      const confirm = (to_loc_id: string | null, managed: ReadonlyArray<LocationWithOccupancy>) => {
        const log = new CallLog()
        return Effect.map(
          outcome(withTasks(
            log,
            { contents: [content({ qty_tasked_from: 4 })], managed },
            (tasks) => tasks.confirm(siteActor, 5, { qty: null, to_loc_id })
          )),
          (result) => [...result, log.methods.includes("InventoryRepository.setQuantities")]
        )
      }
      // L-30 counts the task inbound already: at its limit, it takes the stock it expects.
      const planned = location({ loc_id: "L-30", max_weight: 8, occupancy: { inbound_weight: 8 } })
      assert.deepStrictEqual(yield* confirm(null, [planned]), ["Done", true])
      const full = location({ loc_id: "L-40", max_weight: 7 })
      assert.deepStrictEqual(yield* confirm("L-40", [full]), [
        "LocationFull",
        "Location L-40 has no room for 4 of A",
        false
      ])
      assert.deepStrictEqual(yield* confirm("L-30", [location({ loc_id: "L-30", status: "Blocked In" })]), [
        "LocationStatusRefuses",
        "Location L-30 is Blocked In",
        false
      ])
      assert.deepStrictEqual(yield* confirm(null, [location({ loc_id: "L-22", status: "Blocked Out" })]), [
        "LocationStatusRefuses",
        "Location L-22 is Blocked Out",
        false
      ])
      // A source being counted lets a task made before the count's release finish: it is in flight.
      assert.deepStrictEqual(yield* confirm(null, [location({ loc_id: "L-22", status: "Counting" })]), ["Done", true])
      // It alone records the move against a count: no location but a Counting one has a count under way.
      const counted = new CallLog()
      yield* withTasks(
        counted,
        { contents: [content({ qty_tasked_from: 4 })], managed: [location({ loc_id: "L-22", status: "Counting" })] },
        (tasks) => tasks.confirm(siteActor, 5, { qty: null, to_loc_id: null })
      )
      assert.deepStrictEqual(
        counted.argsOf("CountRepository.addInFlight").map(([stock, delta]) => [
          (stock as Content).content_id,
          (stock as Content).loc_id,
          delta
        ]),
        [[22, "L-22", -4]]
      )
      assert.deepStrictEqual(yield* confirm("L-22", []), [
        "InvalidInput",
        "Invalid field to_loc_id: is where the stock already is",
        false
      ])
    }))

  it.effect("confirm of a missing task is a 404; of a closed one, or more than it holds, a 409 or 400; nothing moves", () =>
    Effect.gen(function*() {
      const confirm = (world: World, qty: number | null = null) => {
        const log = new CallLog()
        return Effect.map(
          failure(withTasks(log, world, (tasks) => tasks.confirm(siteActor, 5, { qty, to_loc_id: null }))),
          (error) => [...error, log.methods.includes("InventoryRepository.setQuantities")]
        )
      }
      assert.deepStrictEqual(yield* confirm({ tasks: [] }), [
        "MovementTaskNotFound",
        "Movement task with id 5 not found",
        false
      ])
      assert.deepStrictEqual(yield* confirm({ tasks: [task({ status_id: 20 })] }), [
        "MovementTaskClosed",
        "Movement task 5 is Complete",
        false
      ])
      assert.deepStrictEqual(yield* confirm({ tasks: [task({ status_id: 21 })] }), [
        "MovementTaskClosed",
        "Movement task 5 is Cancelled",
        false
      ])
      assert.deepStrictEqual(yield* confirm({}, 5), [
        "InvalidInput",
        "Invalid field qty: must be at most the task's quantity, 4",
        false
      ])
      // The guarded close lost to another transaction: it reads the status the winner left.
      assert.deepStrictEqual(yield* confirm({ closes: false, contents: [content({ qty_tasked_from: 4 })] }), [
        "MovementTaskClosed",
        "Movement task 5 is Open",
        false
      ])
    }))

  it.effect("cancel releases the task's whole quantity with an Untask entry; a closed task is a 409", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      yield* withTasks(log, { contents: [content({ qty_tasked_from: 6 })] }, (tasks) => tasks.cancel(siteActor, 5))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "MovementTaskRepository.find",
        "InventoryRepository.lockContent",
        "MovementTaskRepository.close",
        "InventoryRepository.setQuantities",
        "InventoryRepository.appendTransaction",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("MovementTaskRepository.close"), [[5, {
        status_id: 21,
        to_loc_id: "L-30",
        final_loc_id: "L-30"
      }]])
      assert.deepStrictEqual(quantities(log), [[22, { qty: 10, qty_allocated: 3, qty_tasked_from: 2 }]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransaction"), [[
        row("Untask", { qty: 4, to: "L-30", notes: "Movement task 5" })
      ]])
      assert.deepStrictEqual(
        yield* failure(withTasks(new CallLog(), { tasks: [task({ status_id: 21 })] }, (t) => t.cancel(siteActor, 5))),
        ["MovementTaskClosed", "Movement task 5 is Cancelled"]
      )
      assert.deepStrictEqual(
        yield* failure(withTasks(new CallLog(), {}, (t) => t.cancel(siteActor, 6))),
        ["MovementTaskNotFound", "Movement task with id 6 not found"]
      )
    })
  })

  it.effect("move-all makes one task per content with stock available, in content order, counting room over all", () =>
    Effect.gen(function*() {
      const contents = [
        content({ content_id: 25, qty: 3, qty_allocated: 0, tag_id: "T-25" }),
        content({ content_id: 22, qty: 5, qty_allocated: 1 }),
        content({ content_id: 23, qty: 2, qty_allocated: 2 }),
        content({ content_id: 24, qty: 9, loc_id: "L-99" })
      ]
      const moveAll = (managed: ReadonlyArray<LocationWithOccupancy>) => {
        const log = new CallLog()
        return Effect.map(
          Effect.either(withTasks(
            log,
            { contents, managed },
            (tasks) => tasks.moveAll(siteActor, "L-22", { to_loc_id: "L-30", reason: null })
          )),
          (result) => ({ result, log })
        )
      }
      const { log, result } = yield* moveAll([location({ loc_id: "L-30", max_weight: 14 })])
      assert.deepStrictEqual(
        log.methods.filter((m) => m.startsWith("InventoryRepository.lock") || m.startsWith("LocationRepository")),
        ["InventoryRepository.lockContent", "InventoryRepository.lockContent", "LocationRepository.lockMany"]
      )
      assert.deepStrictEqual(log.argsOf("InventoryRepository.lockContent").map(([, id]) => id), [22, 25])
      assert.deepStrictEqual(
        result.pipe(Either.map((records) => records.map((r) => [r.id, r.content_id, r.quantity]))),
        Either.right([[60, 22, 4], [61, 25, 3]])
      )
      // 4 and 3 of A weigh 14 kg together: one kg less of room refuses both.
      const refused = yield* moveAll([location({ loc_id: "L-30", max_weight: 13 })])
      assert.deepStrictEqual(
        refused.result.pipe(Either.mapLeft((e) => e.message), Either.map(() => "Done")),
        Either.left("Location L-30 has no room for 3 of A")
      )
      assert.isFalse(refused.log.methods.includes("MovementTaskRepository.insert"))
      const empty = yield* withTasks(
        new CallLog(),
        { contents },
        (tasks) => tasks.moveAll(siteActor, "L-00", { to_loc_id: "L-30", reason: null })
      )
      assert.deepStrictEqual(empty, [])
      assert.deepStrictEqual(
        yield* failure(
          withTasks(
            new CallLog(),
            { contents },
            (t) => t.moveAll(siteActor, "L-22", { to_loc_id: "L-22", reason: null })
          )
        ),
        ["InvalidInput", "Invalid field to_loc_id: is where the stock already is"]
      )
    }))

  it.effect("putaway plans a content at a receiving location; elsewhere it is a 409", () =>
    Effect.gen(function*() {
      const atReceiving = content({ content_id: 40, loc_id: "RECEIVING", qty: 6, qty_allocated: 0, qty_tasked_from: 1 })
      const atDoor = content({ content_id: 41, loc_id: "DOOR-1", qty: 2, qty_allocated: 0 })
      const managed = [
        location({ loc_id: "S-01" }),
        location({ loc_id: "DOOR-1", loc_type: "Receiving", status: "Blocked Out" })
      ]
      const contents = [content(), atReceiving, atDoor]
      const log = new CallLog()
      const records = yield* withTasks(log, { contents, managed }, (t) => t.putaway(siteActor, { content_id: 40 }))
      assert.deepStrictEqual(records.map((r) => [r.task_type, r.content_id, r.quantity, r.to_loc_id]), [
        ["Putaway", 40, 5, "S-01"]
      ])
      assert.deepStrictEqual(log.methods.slice(0, 7), [
        "Transactor.begin",
        "InventoryRepository.lockContent",
        "LocationRepository.lockMany",
        "ReceivingRepository.receivingLocation",
        "InventoryRepository.holdsOn",
        "SkuRepository.findMany",
        "LocationRepository.lockPutawayCandidates"
      ])
      const putaway = (contentId: number) =>
        failure(withTasks(new CallLog(), { contents, managed }, (t) => t.putaway(siteActor, { content_id: contentId })))
      assert.deepStrictEqual(yield* putaway(22), [
        "ContentNotAtReceiving",
        "Content 22 is at L-22, not at a receiving location"
      ])
      assert.deepStrictEqual(yield* putaway(41), ["LocationStatusRefuses", "Location DOOR-1 is Blocked Out"])
      assert.deepStrictEqual(yield* putaway(99), ["ContentNotFound", "Inventory content with contentId 99 not found"])
      // Nothing to place anywhere: no task, no refusal.
      const none = yield* withTasks(new CallLog(), { contents }, (t) => t.putaway(siteActor, { content_id: 40 }))
      assert.deepStrictEqual(none, [])
    }))

  it.effect("list shows Open tasks unless asked otherwise; get of a missing task is a 404", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      yield* withTasks(log, {}, (tasks) =>
        Effect.zip(
          tasks.list(siteActor, { sku_id: "A" }),
          tasks.list(siteActor, { status_id: "21", limit: 5 })
        ))
      assert.deepStrictEqual(log.argsOf("MovementTaskRepository.list"), [
        [siteActor.scope, { sku_id: "A", status_id: 1 }, { limit: undefined, offset: undefined }],
        [siteActor.scope, { status_id: 21 }, { limit: 5, offset: undefined }]
      ])
      assert.strictEqual((yield* withTasks(new CallLog(), {}, (tasks) => tasks.get(siteActor, 5))).status, "Open")
      assert.deepStrictEqual(yield* failure(withTasks(new CallLog(), {}, (tasks) => tasks.get(siteActor, 6))), [
        "MovementTaskNotFound",
        "Movement task with id 6 not found"
      ])
    }))
})
