/**
 * The contract of `PickingRepository` on both stores: pick tasks (the open claims of started
 * waves), confirming them, and shipping.
 */
import { assert } from "@effect/vitest"
import {
  type ClaimRow,
  InventoryRepository,
  OrderRepository,
  type Owner,
  PickingRepository,
  WaveRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import {
  assertDies,
  fresh,
  insertContent,
  insertOrder,
  insertWave,
  makeTenants,
  onEachStore,
  type Tenants,
  waitsForCommit
} from "./Contract.js"

/**
 * A started wave of the site: an order of client 1 (lines A×3 and B×2) and one of client 2 (A×4),
 * each line claimed in the order's own claimset.
 */
const startedWave = (t: Tenants) =>
  Effect.gen(function*() {
    const waves = yield* WaveRepository
    const wave = yield* insertWave(t.site.owner, { status_id: 17 })
    const claimsOf = (owner: Owner, orderId: string, lines: ReadonlyArray<readonly [string, number]>) =>
      Effect.gen(function*() {
        const order = yield* insertOrder(owner, orderId, lines, { status_id: 15 })
        yield* waves.attachOrders(wave, [order])
        const [claimset] = yield* waves.insertClaimsets(wave, [{ claimset_break: orderId, pick_type: "Per order" }])
        const claims = yield* Effect.forEach(lines, ([sku_id, qty], i) =>
          Effect.map(
            insertContent(owner, { sku_id, qty: 10, qty_allocated: qty }),
            (content): Omit<ClaimRow, "id"> => ({
              ...owner,
              wave_id: wave,
              claimset_id: claimset,
              content_id: content,
              order_ref: order,
              order_id: orderId,
              line_id: i + 1,
              sku_id,
              qty,
              status: "allocated",
              tag_id: "T1",
              from_loc_id: "A-01",
              to_loc_id: "DOCK",
              final_loc_id: "DOCK",
              created_at: "2030-01-01T09:30:00.000Z"
            })
          ))
        yield* waves.insertClaims(claims)
        return { order, claimset }
      })
    const first = yield* claimsOf(t.client1.owner, fresh("P"), [["A", 3], ["B", 2]])
    const second = yield* claimsOf(t.client2.owner, fresh("P"), [["A", 4]])
    const tasks = yield* waves.claims(wave)
    return { wave, first, second, tasks }
  })

onEachStore("PickingRepository", (it) => {
  it.effect("lists the open tasks a scope sees by id, filtered by wave and SKU, in windows", () =>
    Effect.gen(function*() {
      const picking = yield* PickingRepository
      const t = yield* makeTenants
      const { tasks, wave } = yield* startedWave(t)
      const later = yield* startedWave(t)
      const ids = (list: ReadonlyArray<ClaimRow>) => list.map((task) => task.id)
      assert.deepStrictEqual(yield* picking.openTasks(t.site.scope, { wave_id: wave }, {}), tasks)
      assert.deepStrictEqual(ids(yield* picking.openTasks(t.site.scope, {}, {})), [...ids(tasks), ...ids(later.tasks)])
      assert.deepStrictEqual(ids(yield* picking.openTasks(t.client2.scope, { wave_id: wave }, {})), [tasks[2].id])
      assert.deepStrictEqual(ids(yield* picking.openTasks(t.site.scope, { wave_id: wave, sku_id: "A" }, {})), [
        tasks[0].id,
        tasks[2].id
      ])
      assert.deepStrictEqual(ids(yield* picking.openTasks(t.client1.scope, { sku_id: "B" }, { limit: 1, offset: 1 })), [
        later.tasks[1].id
      ])
      assert.deepStrictEqual(yield* picking.openTasks(t.other.scope, {}, {}), [])

      assert.deepStrictEqual(yield* picking.findOpenTask(t.client1.scope, tasks[1].id), Option.some(tasks[1]))
      assert.isTrue(Option.isNone(yield* picking.findOpenTask(t.client2.scope, tasks[1].id)))
      yield* picking.closeTask(tasks[1].id, 2)
      assert.isTrue(Option.isNone(yield* picking.findOpenTask(t.site.scope, tasks[1].id)))
      const open = yield* picking.openTasks(t.site.scope, { wave_id: wave }, {})
      assert.deepStrictEqual(ids(open), [tasks[0].id, tasks[2].id])
    }))

  it.effect("closes a task once: as picked with what was picked, or gone with its emptied claimset", () =>
    Effect.gen(function*() {
      const picking = yield* PickingRepository
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const { first, second, tasks, wave } = yield* startedWave(t)
      const counts = (task: ClaimRow) =>
        picking.openTaskCounts({ orderRef: task.order_ref, claimsetId: task.claimset_id, waveId: task.wave_id })
      assert.deepStrictEqual(yield* counts(tasks[0]), { order: 2, orderPicked: 0, claimset: 2, wave: 3 })
      assert.strictEqual(yield* picking.openTasksOfOrder(first.order), 2)

      assert.isTrue(yield* picking.closeTask(tasks[0].id, 1))
      assert.isFalse(yield* picking.closeTask(tasks[0].id, 1))
      assert.isFalse(yield* picking.closeTask(tasks[0].id, 0))
      assert.deepStrictEqual(yield* counts(tasks[0]), { order: 1, orderPicked: 1, claimset: 1, wave: 2 })
      assert.deepStrictEqual(yield* picking.pickedClaims(first.order), [{ ...tasks[0], status: "picked", qty: 1 }])

      // Nothing picked: the claim goes, and its claimset with its last claim.
      assert.isTrue(yield* picking.closeTask(tasks[2].id, 0))
      assert.isFalse(yield* picking.closeTask(tasks[2].id, 0))
      assert.deepStrictEqual(yield* counts(tasks[2]), { order: 0, orderPicked: 0, claimset: 0, wave: 1 })
      assert.deepStrictEqual(yield* picking.pickedClaims(second.order), [])
      assert.strictEqual(yield* picking.openTasksOfOrder(second.order), 0)
      assert.deepStrictEqual((yield* waves.claimsets(wave)).map((c) => c.id), [first.claimset])
      assert.isTrue(yield* picking.closeTask(tasks[1].id, 0))
      assert.deepStrictEqual((yield* waves.claimsets(wave)).map((c) => c.id), [first.claimset])
    }))

  it.effect("takes picked stock off a content and its allocation together, dying past the allocation", () =>
    Effect.gen(function*() {
      const picking = yield* PickingRepository
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.site.owner, { sku_id: "A", qty: 10, qty_allocated: 4 })
      yield* picking.takeAllocated(content, 3)
      yield* assertDies(picking.takeAllocated(content, 2))
      yield* picking.takeAllocated(content, 1)
      yield* assertDies(picking.takeAllocated(999_999, 1))
      const { qty, qty_allocated } = Option.getOrThrow(yield* inventory.findContent(t.site.scope, content))
      assert.deepStrictEqual([qty, qty_allocated], [6, 0])
    }))

  it.effect("raises the picked quantity of a line and ships what was picked", () =>
    Effect.gen(function*() {
      const picking = yield* PickingRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const ref = yield* insertOrder(t.site.owner, "SH-1", [["A", 5], ["B", 5]])
      yield* picking.addPicked(ref, 1, 2)
      yield* picking.addPicked(ref, 1, 3)
      yield* picking.addPicked(ref, 2, 1)
      const lines = () => Effect.map(orders.find(t.site.scope, "SH-1"), (o) => Option.getOrThrow(o).lines)
      assert.deepStrictEqual((yield* lines()).map((l) => [l.qty_picked, l.qty_shipped]), [[5, 0], [1, 0]])
      yield* picking.shipLines(ref)
      assert.deepStrictEqual((yield* lines()).map((l) => [l.qty_picked, l.qty_shipped]), [[5, 5], [1, 1]])
    }))

  it.effect("backorders lines, clears them, and copies an order with its backordered lines as a backorder", () =>
    Effect.gen(function*() {
      const picking = yield* PickingRepository
      const orders = yield* OrderRepository
      const t = yield* makeTenants
      const ref = yield* insertOrder(t.site.owner, "BO-1", [["A", 5], ["B", 5], ["C", 2]], {
        order_date: "2030-01-01",
        ship_by_date: "2030-01-09",
        ship_dock: "D-2"
      })
      const lines = (orderId: string) =>
        Effect.map(orders.find(t.site.scope, orderId), (o) => Option.getOrThrow(o).lines)
      yield* picking.addBackordered(ref, 1, 2)
      yield* picking.addBackordered(ref, 1, 1)
      yield* picking.addBackordered(ref, 3, 2)
      assert.deepStrictEqual((yield* lines("BO-1")).map((l) => l.qty_backordered), [3, 0, 2])
      assert.strictEqual(yield* picking.backorderCount(t.site.owner.site_id, "BO-1"), 0)

      const made = { backorder_of: "BO-1", created_at: "2030-01-02T08:00:00.000Z", created_by: "picker" }
      const copy = yield* picking.insertBackorder(ref, { ...made, order_id: "BO-1-B1" })
      assert.isTrue(Option.isSome(copy))
      // The id is taken now: none, and nothing written.
      assert.isTrue(Option.isNone(yield* picking.insertBackorder(ref, { ...made, order_id: "BO-1-B1" })))
      const backorder = Option.getOrThrow(yield* orders.find(t.site.scope, "BO-1-B1"))
      const original = Option.getOrThrow(yield* orders.find(t.site.scope, "BO-1"))
      assert.deepStrictEqual(backorder.header, {
        ...original.header,
        ref: Option.getOrThrow(copy),
        order_id: "BO-1-B1",
        status_id: 14,
        created_at: made.created_at,
        created_by: "picker",
        backorder_of: "BO-1"
      })
      assert.deepStrictEqual(backorder.lines, [
        { line: 1, sku_id: "A", qty: 3, qty_picked: 0, qty_shipped: 0, qty_backordered: 0 },
        { line: 3, sku_id: "C", qty: 2, qty_picked: 0, qty_shipped: 0, qty_backordered: 0 }
      ])
      assert.strictEqual(yield* picking.backorderCount(t.site.owner.site_id, "BO-1"), 1)
      // Counted per site.
      assert.strictEqual(yield* picking.backorderCount(t.other.owner.site_id, "BO-1"), 0)

      yield* picking.clearBackordered(ref)
      assert.deepStrictEqual((yield* lines("BO-1")).map((l) => l.qty_backordered), [0, 0, 0])
    }))

  it.effect("sets a claimset's status, and locks a wave yielding its status", () =>
    Effect.gen(function*() {
      const picking = yield* PickingRepository
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const { first, wave } = yield* startedWave(t)
      yield* picking.setClaimsetStatus(first.claimset, "picked")
      const statuses = (yield* waves.claimsets(wave)).map((c) => c.status)
      assert.deepStrictEqual(statuses, ["picked", "released"])
      assert.deepStrictEqual(yield* picking.lockWave(wave), Option.some(17))
      assert.isTrue(Option.isNone(yield* picking.lockWave(999_999)))
      const seen = yield* waitsForCommit(
        Effect.zipRight(picking.lockWave(wave), waves.setStatus(wave, 18)),
        picking.lockWave(wave)
      )
      assert.deepStrictEqual(seen, Option.some(18))
    }))

  it.effect("locks an open task: of two confirmations, the second waits and finds it closed", () =>
    Effect.gen(function*() {
      const picking = yield* PickingRepository
      const t = yield* makeTenants
      const { tasks } = yield* startedWave(t)
      assert.deepStrictEqual(yield* picking.lockOpenTask(tasks[0].id), Option.some(tasks[0]))
      const seen = yield* waitsForCommit(
        Effect.zipRight(picking.lockOpenTask(tasks[0].id), picking.closeTask(tasks[0].id, 3)),
        picking.lockOpenTask(tasks[0].id)
      )
      assert.isTrue(Option.isNone(seen))
      assert.isTrue(Option.isNone(yield* picking.lockOpenTask(999_999)))
    }))
})
