/**
 * The contract of `MovementTaskRepository` and `SiteSettingsRepository` on both stores: tasks
 * written many at once, listed and found in a scope, locked, completed or closed once; a site's settings.
 */
import { assert } from "@effect/vitest"
import { defaultSiteSettings, MovementTaskRepository, SiteSettingsRepository, type StoredMovementTask } from "@wms/core"
import { Effect, Option } from "effect"
import { insertContent, insertTasks, makeTenants, onEachStore, taskOf, waitsForCommit } from "./Contract.js"

const idsOf = (tasks: ReadonlyArray<StoredMovementTask>) => tasks.map((task) => task.id)

onEachStore("MovementTaskRepository", (it) => {
  it.effect("inserts tasks and finds those a scope sees, with the values' own types", () =>
    Effect.gen(function*() {
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const written = [
        taskOf(t.client1.owner, content, { task_type: "Putaway", qty: 2147483647, reason: "" }),
        taskOf(t.site.owner, content, { task_type: "Replenish", reason: "low" }),
        taskOf(t.client2.owner, content, { final_loc_id: "C-01" })
      ]
      const ids = yield* insertTasks(written)
      assert.strictEqual(ids.length, 3)
      assert.isTrue(ids.every((id, i) => typeof id === "number" && (i === 0 || id > ids[i - 1])))
      assert.deepStrictEqual(yield* insertTasks([]), [])

      for (const [i, id] of ids.entries()) {
        assert.deepStrictEqual(yield* tasks.find(t.site.scope, id, false), Option.some({ id, ...written[i] }))
      }
      assert.isTrue(Option.isSome(yield* tasks.find(t.client1.scope, ids[0], true)))
      assert.isTrue(Option.isNone(yield* tasks.find(t.client1.scope, ids[1], false)))
      assert.isTrue(Option.isNone(yield* tasks.find(t.client2.scope, ids[0], true)))
      assert.isTrue(Option.isNone(yield* tasks.find(t.other.scope, ids[0], false)))
    }))

  it.effect("inserts thousands of tasks in one go and answers their ids in the tasks' order", () =>
    Effect.gen(function*() {
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const count = 2_500
      const ids = yield* insertTasks(
        Array.from({ length: count }, (_, i) => taskOf(t.client1.owner, content, { qty: i + 1 }))
      )
      const listed = yield* tasks.list(t.client1.scope, { status_id: 1 }, {})
      assert.deepStrictEqual(idsOf(listed), ids)
      assert.deepStrictEqual(listed.map((task) => task.qty), Array.from({ length: count }, (_, i) => i + 1))
    }))

  it.effect("lists the tasks a scope sees of a status by id, filtered, in windows", () =>
    Effect.gen(function*() {
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const [move, putaway, other, ofSite, closed] = yield* insertTasks([
        taskOf(t.client1.owner, content, { from_loc_id: "F1", to_loc_id: "T1", final_loc_id: "T1" }),
        taskOf(t.client1.owner, content, { task_type: "Putaway", sku_id: "B", from_loc_id: "F2", to_loc_id: "T1" }),
        taskOf(t.client2.owner, content, { from_loc_id: "F1", to_loc_id: "T2", final_loc_id: "T2" }),
        taskOf(t.site.owner, content, { task_type: "Replenish", from_loc_id: "F1", to_loc_id: "T2" }),
        taskOf(t.client1.owner, content, { from_loc_id: "F1", to_loc_id: "T1", final_loc_id: "T1" })
      ])
      yield* insertTasks([taskOf(t.other.owner, content)])
      assert.isTrue(yield* tasks.close(closed, { status_id: 20, to_loc_id: "T1", final_loc_id: "T1" }))

      const listed = (scope: typeof t.site.scope, filter: Parameters<typeof tasks.list>[1], window = {}) =>
        Effect.map(tasks.list(scope, filter, window), idsOf)
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 1 }), [move, putaway, other, ofSite])
      assert.deepStrictEqual(yield* listed(t.client1.scope, { status_id: 1 }), [move, putaway])
      assert.deepStrictEqual(yield* listed(t.client2.scope, { status_id: 1 }), [other])
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 20 }), [closed])
      assert.deepStrictEqual(yield* listed(t.client2.scope, { status_id: 20 }), [])
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 21 }), [])
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 1, task_type: "Move" }), [move, other])
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 1, sku_id: "B" }), [putaway])
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 1, from_loc_id: "F1" }), [move, other, ofSite])
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 1, to_loc_id: "T2" }), [other, ofSite])
      assert.deepStrictEqual(
        yield* listed(t.site.scope, { status_id: 1, task_type: "Move", from_loc_id: "F1", to_loc_id: "T1" }),
        [move]
      )
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 1 }, { limit: 2, offset: 1 }), [putaway, other])
      assert.deepStrictEqual(yield* listed(t.site.scope, { status_id: 1 }, { offset: 3 }), [ofSite])
    }))

  it.effect("closes an Open task once, as Complete where the stock went or as Cancelled", () =>
    Effect.gen(function*() {
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const [confirmed, cancelled] = yield* insertTasks([
        taskOf(t.client1.owner, content),
        taskOf(t.client1.owner, content)
      ])
      assert.isTrue(yield* tasks.close(confirmed, { status_id: 20, to_loc_id: "X-01", final_loc_id: "X-02" }))
      assert.isFalse(yield* tasks.close(confirmed, { status_id: 21, to_loc_id: "B-01", final_loc_id: "B-01" }))
      assert.isFalse(yield* tasks.close(confirmed, { status_id: 20, to_loc_id: "Y-01", final_loc_id: "Y-01" }))
      assert.isTrue(yield* tasks.close(cancelled, { status_id: 21, to_loc_id: "B-01", final_loc_id: "B-01" }))
      assert.isFalse(yield* tasks.close(cancelled, { status_id: 20, to_loc_id: "B-01", final_loc_id: "B-01" }))
      assert.isFalse(yield* tasks.close(cancelled + 1_000_000, { status_id: 20, to_loc_id: "B", final_loc_id: "B" }))

      const [done, gone] = yield* Effect.forEach([confirmed, cancelled], (id) =>
        Effect.map(tasks.find(t.site.scope, id, false), Option.getOrThrow))
      assert.deepStrictEqual(
        [done.status_id, done.to_loc_id, done.final_loc_id, gone.status_id, gone.to_loc_id],
        [20, "X-01", "X-02", 21, "B-01"]
      )
    }))

  it.effect("completes an Open task a scope sees once, where it was planned to go, and redirects a completed one", () =>
    Effect.gen(function*() {
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const written = taskOf(t.client1.owner, content, { final_loc_id: "B-02" })
      const [id, cancelled] = yield* insertTasks([written, taskOf(t.client1.owner, content)])
      assert.isTrue(Option.isNone(yield* tasks.complete(t.client2.scope, id)))
      assert.isTrue(Option.isNone(yield* tasks.complete(t.other.scope, id)))
      assert.deepStrictEqual(yield* tasks.complete(t.client1.scope, id), Option.some({ id, ...written, status_id: 20 }))
      assert.isTrue(Option.isNone(yield* tasks.complete(t.site.scope, id)))
      assert.isTrue(Option.isNone(yield* tasks.complete(t.site.scope, id + 1_000_000)))
      assert.isTrue(yield* tasks.close(cancelled, { status_id: 21, to_loc_id: "B-01", final_loc_id: "B-01" }))
      assert.isTrue(Option.isNone(yield* tasks.complete(t.site.scope, cancelled)))

      yield* tasks.redirect(id, "C-01")
      const done = Option.getOrThrow(yield* tasks.find(t.site.scope, id, false))
      assert.deepStrictEqual([done.status_id, done.to_loc_id, done.final_loc_id], [20, "C-01", "C-01"])
      assert.strictEqual(Option.getOrThrow(yield* tasks.find(t.site.scope, cancelled, false)).to_loc_id, "B-01")
    }))

  it.effect("a completion waits for the task's lock, and completes nothing the holder closed", () =>
    Effect.gen(function*() {
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const [held, closed] = yield* insertTasks([taskOf(t.client1.owner, content), taskOf(t.client1.owner, content)])
      const completed = yield* waitsForCommit(tasks.find(t.site.scope, held, true), tasks.complete(t.site.scope, held))
      assert.strictEqual(Option.getOrThrow(completed).status_id, 20)
      const after = yield* waitsForCommit(
        Effect.zipRight(
          tasks.find(t.site.scope, closed, true),
          tasks.close(closed, { status_id: 21, to_loc_id: "B-01", final_loc_id: "B-01" })
        ),
        tasks.complete(t.site.scope, closed)
      )
      assert.isTrue(Option.isNone(after))
      assert.strictEqual(Option.getOrThrow(yield* tasks.find(t.site.scope, closed, false)).status_id, 21)
    }))

  it.effect("a locked task keeps a writer out until the first commits; of two closings only the first applies", () =>
    Effect.gen(function*() {
      const tasks = yield* MovementTaskRepository
      const t = yield* makeTenants
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 10 })
      const [locked, raced] = yield* insertTasks([taskOf(t.client1.owner, content), taskOf(t.client1.owner, content)])
      const closing = { to_loc_id: "B-01", final_loc_id: "B-01" }
      const seen = yield* waitsForCommit(
        tasks.find(t.client1.scope, locked, true),
        Effect.map(tasks.find(t.site.scope, locked, true), Option.getOrThrow)
      )
      assert.strictEqual(seen.status_id, 1)
      // The second closing waits for the first and then finds the task closed.
      const second = yield* waitsForCommit(
        tasks.close(raced, { status_id: 20, ...closing }),
        tasks.close(raced, { status_id: 21, ...closing })
      )
      assert.isFalse(second)
      assert.strictEqual(Option.getOrThrow(yield* tasks.find(t.site.scope, raced, false)).status_id, 20)
      // A lock holder that closes the task leaves the waiting closer nothing to close.
      const afterLock = yield* waitsForCommit(
        Effect.zipRight(tasks.find(t.site.scope, locked, true), tasks.close(locked, { status_id: 21, ...closing })),
        tasks.close(locked, { status_id: 20, ...closing })
      )
      assert.isFalse(afterLock)
    }))
})

onEachStore("SiteSettingsRepository", (it) => {
  it.effect("answers the defaults for a site that never set them, then what was put, per site", () =>
    Effect.gen(function*() {
      const settings = yield* SiteSettingsRepository
      const t = yield* makeTenants
      const siteId = t.site.owner.site_id
      assert.deepStrictEqual(yield* settings.get(siteId), defaultSiteSettings)
      yield* settings.put(siteId, { ...defaultSiteSettings, putaway_on_receipt: true })
      assert.deepStrictEqual(yield* settings.get(siteId), { ...defaultSiteSettings, putaway_on_receipt: true })
      assert.deepStrictEqual(yield* settings.get(t.other.owner.site_id), defaultSiteSettings)
      const shortPicks = {
        ...defaultSiteSettings,
        reallocate_short_picks: true,
        backorders: true,
        count_on_short_pick: true,
        count_variance_threshold: { percent: 2.5, units: 3 },
        gs1_company_prefix: "0614141",
        sscc_extension_digit: 9,
        pack_before_ship: true
      }
      yield* settings.put(siteId, shortPicks)
      assert.deepStrictEqual(yield* settings.get(siteId), shortPicks)
      yield* settings.put(siteId, { ...defaultSiteSettings, putaway_on_receipt: true })
      assert.deepStrictEqual(yield* settings.get(siteId), { ...defaultSiteSettings, putaway_on_receipt: true })
    }))
})
