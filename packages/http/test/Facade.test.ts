import { assert, describe, it } from "@effect/vitest"
import {
  CompanyPrefixMissing,
  CountBelowTasked,
  CountNotFound,
  CountWrongState,
  defaultSiteSettings,
  Forbidden,
  InvalidInput,
  isConflict,
  isNotFound,
  isValidSscc,
  LocationExists,
  MovementTaskClosed,
  MovementTaskNotFound,
  NotAPickFace,
  OrderExists,
  OrderNotFound,
  OrderNotShipped,
  PackedExceedsPicked,
  PickFaceNotFound,
  PreAdviceNotTransfer,
  ReturnNotFound,
  TransferSkuMissing,
  Unauthenticated,
  WaveNotFound
} from "@wms/core"
import { createWarehouse } from "@wms/http"
import { Effect } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"

const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error)

const databases = [
  ["sqlite", Effect.map(freshSqliteFile, (file) => `sqlite:${file}`)],
  ["postgres", freshPgDatabase]
] as const

for (const [label, database] of databases) {
  describe(`the Promise facade on ${label}`, () => {
    it.effect("rejects with the core's error classes and the API's messages", () =>
      Effect.gen(function*() {
        const url = yield* database
        const wms = yield* Effect.promise(() => createWarehouse({ database: url, worker: false }))
        yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
        yield* Effect.promise(async () => {
          await wms.orders.create({ order_id: "SO-1" })
          // Each failure is its feature's error with its data; its category says the status family.
          const duplicate = await rejection(wms.orders.create({ order_id: "SO-1" }))
          assert.instanceOf(duplicate, OrderExists)
          assert.strictEqual((duplicate as OrderExists)._tag, "OrderExists")
          assert.strictEqual((duplicate as OrderExists).orderId, "SO-1")
          assert.strictEqual((duplicate as OrderExists).message, "Order with OrderID SO-1 already exists")
          assert.isTrue(isConflict(duplicate))
          const missing = await rejection(wms.orders.get("SO-2"))
          assert.instanceOf(missing, OrderNotFound)
          assert.strictEqual((missing as OrderNotFound).orderId, "SO-2")
          assert.strictEqual((missing as OrderNotFound).message, "Order with OrderID SO-2 not found")
          assert.strictEqual((missing as OrderNotFound).category, "NotFound")
          assert.isTrue(isNotFound(missing))
          const noWave = await rejection(wms.waves.start(77))
          assert.instanceOf(noWave, WaveNotFound)
          assert.deepStrictEqual([(noWave as WaveNotFound).waveId, (noWave as WaveNotFound).message], [
            77,
            "Wave met id 77 niet gevonden"
          ])
          // Input is checked by the API's schemas, with the API's words.
          const noId = await rejection(wms.orders.create({} as never))
          assert.instanceOf(noId, InvalidInput)
          assert.strictEqual((noId as InvalidInput).message, "Missing field order_id")
          const badQty = await rejection(wms.orders.addLines("SO-1", [{ sku_id: "A", qty: 0 }]))
          assert.strictEqual((badQty as InvalidInput).message, "Invalid field 0.qty: must be an integer of at least 1")
          const unknownSku = await rejection(wms.orders.addLines("SO-1", { sku_id: "NOPE", qty: 1 }))
          assert.instanceOf(unknownSku, InvalidInput)
          const order = await wms.orders.get("SO-1")
          assert.strictEqual(order.created_by, "system")
          const badHook = await rejection(
            wms.webhooks.create({ event_type: "order_shipped", url: "ftp://example.com" })
          )
          assert.strictEqual((badHook as InvalidInput).message, "Invalid field url: must be an absolute http(s) URL")
          const privateHook = await rejection(
            wms.webhooks.create({ event_type: "order_shipped", url: "http://127.0.0.1:9/hook" })
          )
          assert.strictEqual(
            (privateHook as InvalidInput).message,
            "Invalid field url: http://127.0.0.1:9/hook targets a loopback address, not a public one"
          )
          await wms.webhooks.create({ event_type: "order_shipped", url: "https://example.com/hook", enabled: false })
          const hooks = (await wms.webhooks.list()).map((hook) => [hook.event_type, hook.enabled])
          assert.deepStrictEqual(hooks, [["order_shipped", false]])
        })
      }).pipe(Effect.orDie).pipe(Effect.scoped), { timeout: 60_000 })

    it.effect(
      "acts in the scope it is given, as the system or as a user with that user's rights",
      () =>
        Effect.gen(function*() {
          const url = yield* database
          const wms = yield* Effect.promise(() => createWarehouse({ database: url, site: "east" }))
          yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
          yield* Effect.promise(async () => {
            assert.deepStrictEqual((await wms.sites.list()).map((site) => site.site_id), ["east"])
            await wms.sites.create({ site_id: "hub", name: "Hub", fulfillment: true })
            const hub = wms.as({ site: "hub" })
            await hub.clients.create({ client_id: "acme", name: "Acme" })
            await hub.users.create({
              email: "picker@acme.test",
              password: "a-long-password",
              name: "Picker",
              site: "hub",
              client: "acme"
            })
            const acme = wms.as({ site: "acme", user: "Picker@acme.test" })
            await acme.skus.create({ sku_id: "BOLT", description: "Bolt" })
            await acme.orders.create({ order_id: "SO-A", lines: [{ sku_id: "BOLT", qty: 2 }] })
            await wms.orders.create({ order_id: "SO-E" })
            const hubOrders = (await hub.orders.list()).map((order) => [order.order_id, order.client_id])
            assert.deepStrictEqual(hubOrders, [["SO-A", "acme"]])
            assert.deepStrictEqual((await wms.orders.list()).map((order) => order.order_id), ["SO-E"])
            assert.notStrictEqual((await hub.orders.get("SO-A")).created_by, "system")
            // A user without admin rights stays within them; an unknown scope or user is refused.
            assert.instanceOf(await rejection(acme.sites.list()), Forbidden)
            assert.instanceOf(
              await rejection(wms.as({ site: "hub", user: "picker@acme.test" }).orders.list()),
              Forbidden
            )
            assert.instanceOf(await rejection(wms.as({ site: "nowhere" }).orders.list()), Forbidden)
            const nobody = wms.as({ site: "hub", user: "nobody@acme.test" })
            assert.instanceOf(await rejection(nobody.orders.list()), Unauthenticated)
          })
        }).pipe(Effect.orDie).pipe(Effect.scoped),
      { timeout: 60_000 }
    )
  })
}

describe("the Promise facade's checks, as the API declares them", () => {
  it.effect(
    "checks path and query values as the server does, admin rights before the body, and resolves to new ids",
    () =>
      Effect.gen(function*() {
        const file = yield* freshSqliteFile
        const wms = yield* Effect.promise(() => createWarehouse({ database: `sqlite:${file}`, worker: false }))
        yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
        yield* Effect.promise(async () => {
          await wms.orders.create({ order_id: "SO-1", lines: [] })
          const halfLine = await rejection(wms.orders.line("SO-1", 1.5))
          assert.instanceOf(halfLine, InvalidInput)
          assert.strictEqual((halfLine as InvalidInput).message, "Invalid field line_id: must be an integer id")
          const nulId = await rejection(wms.skus.get("A\u0000"))
          assert.strictEqual((nulId as InvalidInput).message, "Invalid field id: must not contain NUL characters")
          const negative = await rejection(wms.carriers.list({ limit: -1 }))
          assert.strictEqual(
            (negative as InvalidInput).message,
            "Invalid field limit: must be a whole number from 0 to 999999999"
          )
          const carrierId = await wms.carriers.create({ name: "PostNL" })
          assert.deepStrictEqual((await wms.carriers.list({ offset: 0, limit: 1 })).map((carrier) => carrier.id), [
            carrierId
          ])
          assert.strictEqual((await wms.carriers.get(carrierId)).name, "PostNL")
          // Admin rights come before the body's schema, as over HTTP.
          await wms.users.create({ email: "clerk@main.test", password: "a-long-password", name: "Clerk", site: "main" })
          const clerk = wms.as({ site: "main", user: "clerk@main.test" })
          assert.instanceOf(await rejection(clerk.sites.create({} as never)), Forbidden)
          assert.instanceOf(await rejection(wms.sites.create({} as never)), InvalidInput)
        })
      }).pipe(Effect.orDie).pipe(Effect.scoped),
    { timeout: 60_000 }
  )
})

describe("the Promise facade's warehouse cycle", () => {
  it.effect(
    "resolves creates to their records and a receipt with putaway to its report; rejects with the cycle's errors",
    () =>
      Effect.gen(function*() {
        const file = yield* freshSqliteFile
        const wms = yield* Effect.promise(() => createWarehouse({ database: `sqlite:${file}`, worker: false }))
        yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
        yield* Effect.promise(async () => {
          await wms.skus.create({ sku_id: "BOLT", description: "Bolt" })
          const location = await wms.locations.create({ loc_id: "S-1", loc_type: "Storage", zone: "A" })
          assert.deepStrictEqual([location.loc_id, location.zone, location.status], ["S-1", "A", "Active"])
          assert.instanceOf(await rejection(wms.locations.create({ loc_id: "S-1", loc_type: "Dock" })), LocationExists)
          assert.deepStrictEqual((await wms.locations.list({ zone: "A" })).map((l) => l.loc_id), ["S-1"])

          assert.deepStrictEqual(await wms.sites.settings("main"), defaultSiteSettings)
          await wms.sites.updateSettings("main", { putaway_on_receipt: true })
          await wms.preadvices.create({ pre_advice_id: "PA-1", lines: [{ sku_id: "BOLT", qty: 6 }] })
          const report = await wms.preadvices.receive("PA-1")
          assert.deepStrictEqual(report?.unplaced, [])
          const [putaway] = await wms.movementTasks.list()
          assert.deepStrictEqual([report?.tasks, putaway?.to_loc_id], [[putaway?.id], "S-1"])
          await wms.movementTasks.confirm(putaway!.id)
          const closed = await rejection(wms.movementTasks.cancel(putaway!.id))
          assert.instanceOf(closed, MovementTaskClosed)
          assert.strictEqual((closed as MovementTaskClosed).message, `Movement task ${putaway!.id} is Complete`)

          const moves = await wms.locations.moveAll("S-1", { to_loc_id: "B-1" })
          assert.deepStrictEqual(moves.map((task) => [task.task_type, task.quantity, task.to_loc_id]), [[
            "Move",
            6,
            "B-1"
          ]])
          await wms.movementTasks.confirm(moves[0]!.id, { qty: 4 })
          assert.deepStrictEqual((await wms.movementTasks.get(moves[0]!.id)).status, "Complete")
          const task = await wms.movementTasks.create({ sku_id: "BOLT", from_loc_id: "S-1", qty: 2, to_loc_id: "B-1" })
          assert.strictEqual(task.content_id, moves[0]!.content_id)
          const missing = await rejection(wms.movementTasks.create({ qty: 1, to_loc_id: "B-1" }))
          assert.strictEqual((missing as InvalidInput).message, "Missing field content_id")
          assert.instanceOf(await rejection(wms.movementTasks.get(999)), MovementTaskNotFound)

          const count = await wms.counts.create({ loc_id: "S-1", sku_id: "BOLT" })
          await wms.counts.release(count.id)
          // The open task carries 2 away from S-1: a count below that cannot apply, and writes nothing.
          const below = await rejection(wms.counts.record(count.id, { lines: [{ sku_id: "BOLT", qty_counted: 1 }] }))
          assert.instanceOf(below, CountBelowTasked)
          assert.strictEqual((await wms.counts.get(count.id)).lines[0]!.qty_counted, null)
          await wms.counts.record(count.id, { lines: [{ sku_id: "BOLT", qty_counted: 3 }] })
          const counted = await wms.counts.get(count.id)
          assert.deepStrictEqual([counted.status, counted.lines[0]!.variance], ["Complete", 1])
          assert.deepStrictEqual((await wms.counts.list({ status: "20" })).map((c) => c.id), [count.id])
          assert.instanceOf(await rejection(wms.counts.release(count.id)), CountWrongState)
          assert.instanceOf(await rejection(wms.counts.get(999)), CountNotFound)
        })
      }).pipe(Effect.orDie).pipe(Effect.scoped),
    { timeout: 60_000 }
  )

  it.effect("sets pick faces and runs replenishment; rejects with their errors", () =>
    Effect.gen(function*() {
      const file = yield* freshSqliteFile
      const wms = yield* Effect.promise(() => createWarehouse({ database: `sqlite:${file}`, worker: false }))
      yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
      yield* Effect.promise(async () => {
        await wms.skus.create({ sku_id: "BOLT", description: "Bolt" })
        await wms.locations.create({ loc_id: "S-1", loc_type: "Storage" })
        await wms.locations.create({ loc_id: "PF-1", loc_type: "PickFace" })
        await wms.inventory.adjust({ sku_id: "BOLT", loc_id: "S-1", qty: 50 })
        await wms.pickFaces.put("BOLT", "PF-1", { min_qty: 5, max_qty: 20, replenish_multiple: 8 })
        const { tasks } = await wms.replenishment.run()
        const [task] = await wms.movementTasks.list({ task_type: "Replenish" })
        assert.deepStrictEqual([tasks, task?.quantity, task?.to_loc_id], [[task?.id], 16, "PF-1"])
        assert.deepStrictEqual((await wms.replenishment.run({ sku_id: "BOLT" })).tasks, [])
        const face = await wms.pickFaces.get("BOLT", "PF-1")
        assert.deepStrictEqual([face.level, face.inbound_qty], [16, 16])
        assert.deepStrictEqual((await wms.pickFaces.list({ sku_id: "BOLT" })).map((f) => f.loc_id), ["PF-1"])
        assert.instanceOf(await rejection(wms.pickFaces.put("BOLT", "S-1", { min_qty: 1, max_qty: 2 })), NotAPickFace)
        await wms.pickFaces.remove("BOLT", "PF-1")
        assert.instanceOf(await rejection(wms.pickFaces.get("BOLT", "PF-1")), PickFaceNotFound)
      })
    }).pipe(Effect.orDie).pipe(Effect.scoped), { timeout: 60_000 })
})

describe("the Promise facade's shipping units", () => {
  it.effect(
    "creates units with the site's SSCCs, answers the packing list, and rejects with packing's errors",
    () =>
      Effect.scoped(
        Effect.gen(function*() {
          const file = yield* freshSqliteFile
          const wms = yield* Effect.promise(() => createWarehouse({ database: `sqlite:${file}`, worker: false }))
          yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
          yield* Effect.promise(async () => {
            await wms.skus.create({ sku_id: "BOLT", description: "Bolt" })
            await wms.orders.create({ order_id: "SO-1", lines: [{ sku_id: "BOLT", qty: 2 }] })
            const carton = { order_id: "SO-1", unit_type: "Carton" } as const
            assert.instanceOf(await rejection(wms.shippingUnits.createShippingUnit(carton)), CompanyPrefixMissing)
            await wms.sites.updateSettings("main", { gs1_company_prefix: "0614141" })
            const unit = await wms.shippingUnits.createShippingUnit(carton)
            assert.isTrue(isValidSscc(unit.sscc))
            assert.deepStrictEqual(await wms.shippingUnits.getShippingUnit(unit.id), unit)
            // Nothing of the order is picked yet.
            const more = await rejection(wms.shippingUnits.addShippingUnitLine(unit.id, { order_line: 1, qty: 1 }))
            assert.instanceOf(more, PackedExceedsPicked)
            const list = await wms.shippingUnits.getPackingList("SO-1")
            assert.deepStrictEqual(typeof list === "string" ? list : list.units.map((u) => u.sscc), [unit.sscc])
            assert.deepStrictEqual((await wms.orders.get("SO-1")).shipping_units, [
              { sscc: unit.sscc, unit_type: "Carton", parent_sscc: null, weight: 0, tracking_number: null }
            ])
            assert.deepStrictEqual(await wms.shippingUnits.listShippingUnits({ order_id: "SO-1" }), [unit])
          })
        }).pipe(Effect.orDie)
      ),
    { timeout: 60_000 }
  )
})

describe("the Promise facade's transfers", () => {
  it.effect(
    "creates a transfer order to another site, lists what is in transit, and rejects with transfers' errors",
    () =>
      Effect.scoped(
        Effect.gen(function*() {
          const file = yield* freshSqliteFile
          const wms = yield* Effect.promise(() => createWarehouse({ database: `sqlite:${file}`, worker: false }))
          yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
          yield* Effect.promise(async () => {
            await wms.admin.createSite({ site_id: "north", name: "North" })
            const north = wms.as({ site: "north" })
            await wms.skus.createSku({ sku_id: "BOLT", description: "Bolt" })
            await wms.skus.createSku({ sku_id: "NUT", description: "Nut" })
            await north.skus.createSku({ sku_id: "BOLT", description: "Bolt" })
            const lines = [{ sku_id: "NUT", qty: 1 }]
            assert.instanceOf(
              await rejection(wms.orders.createOrder({ order_id: "T-1", to_site: "north", lines })),
              TransferSkuMissing
            )
            await wms.orders.createOrder({ order_id: "T-1", to_site: "north", lines: [{ sku_id: "BOLT", qty: 2 }] })
            const order = await wms.orders.getOrder("T-1")
            assert.deepStrictEqual([order.order_type, order.to_site], ["Transfer", "north"])
            assert.deepStrictEqual(await north.transfers.listInTransit(), [])
            await north.preAdvices.createPreAdvice({ pre_advice_id: "PA-1" })
            assert.instanceOf(
              await rejection(north.transfers.closeTransfer("PA-1", { reason_code: "Other" })),
              PreAdviceNotTransfer
            )
          })
        }).pipe(Effect.orDie)
      ),
    { timeout: 60_000 }
  )
})

describe("the Promise facade's returns", () => {
  it.effect("lists and reads returns, and rejects with the returns' errors", () =>
    Effect.scoped(
      Effect.gen(function*() {
        const file = yield* freshSqliteFile
        const wms = yield* Effect.promise(() => createWarehouse({ database: `sqlite:${file}`, worker: false }))
        yield* Effect.addFinalizer(() => Effect.promise(() => wms.close()))
        yield* Effect.promise(async () => {
          await wms.skus.createSku({ sku_id: "BOLT", description: "Bolt" })
          await wms.orders.createOrder({ order_id: "SO-1", lines: [{ sku_id: "BOLT", qty: 2 }] })
          const rma = { order_id: "SO-1", reason_code: "Damaged", lines: [{ order_line: 1, qty: 1 }] }
          assert.instanceOf(await rejection(wms.returns.createReturn(rma)), OrderNotShipped)
          assert.instanceOf(await rejection(wms.returns.getReturn("R00000001")), ReturnNotFound)
          assert.instanceOf(await rejection(wms.returns.closeReturn("R00000001")), ReturnNotFound)
          assert.deepStrictEqual(await wms.returns.listReturns({ order_id: "SO-1" }), [])
        })
      }).pipe(Effect.orDie)
    ), { timeout: 60_000 })
})

describe("createWarehouse", () => {
  it("rejects on a database URL of no known kind", async () => {
    const error = await rejection(createWarehouse({ database: "mysql://localhost/wms" }))
    assert.instanceOf(error, Error)
    assert.match((error as Error).message, /must start with sqlite: or postgres:\/\//)
  })
})
