/**
 * The contract of the event outbox on both stores: `EventPublisher`, and `WebhookRepository` with
 * its fan-out of events to deliveries and the leases on them.
 *
 * Fan-outs and claims reach every webhook of the database. The tests share it, so each test that
 * claims makes its deliveries due in a year of its own, before those of the tests before it; the
 * others fan out at `farFuture`, when no claim looks. Ids are read back, never counted: a
 * PostgreSQL sequence skips the ids of rolled-back rows.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe } from "@effect/vitest"
import {
  EventPublisher,
  type EventType,
  type Owner,
  Transactor,
  type WarehouseEvent,
  WebhookRepository
} from "@wms/core"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import { fresh, makeTenants, onEachStore } from "./Contract.js"

const farFuture = "2099-01-01T00:00:00.000Z"

const eventOf = (owner: Owner, event_type: WarehouseEvent["event_type"], data: unknown): WarehouseEvent => ({
  event_type,
  site_id: owner.site_id,
  client_id: owner.client_id,
  data
})

const hook = (event_type: EventType, fields: { readonly secret?: string | null; readonly enabled?: boolean } = {}) => ({
  event_type,
  url: `https://example.com/${fresh("hook")}`,
  secret: fields.secret ?? null,
  enabled: fields.enabled ?? true
})

/** The id of the last event written so far. */
const lastEventId = Effect.flatMap(
  WebhookRepository,
  (webhooks) => Effect.map(webhooks.eventsBetween(0, 2147483647, 2147483647), (events) => events.at(-1)?.id ?? 0)
)

/** Publishes events and fans them out; yields the events' ids. */
const publishAndFanOut = (events: ReadonlyArray<WarehouseEvent>, now: string) =>
  Effect.gen(function*() {
    const publisher = yield* EventPublisher
    const webhooks = yield* WebhookRepository
    const { atomically } = yield* Transactor
    const before = yield* lastEventId
    yield* atomically(publisher.publishAll(events))
    const upTo = yield* webhooks.settledEventId(before)
    yield* atomically(webhooks.fanOut(upTo, now))
    return (yield* webhooks.eventsBetween(before, upTo, events.length)).map((event) => event.id)
  })

onEachStore("the event outbox", (it) => {
  describe("EventPublisher", () => {
    it.effect("writes events in the transaction of their change, in their order, data as JSON text", () =>
      Effect.gen(function*() {
        const publisher = yield* EventPublisher
        const webhooks = yield* WebhookRepository
        const { atomically } = yield* Transactor
        const t = yield* makeTenants
        const before = yield* lastEventId
        const data = { order_id: "it's \"quoted\" — ünïcode", qty: 2147483647, none: null, lines: [1, 2] }
        yield* atomically(Effect.zipRight(
          publisher.publish(eventOf(t.client1.owner, "order_shipped", data)),
          publisher.publishAll([
            eventOf(t.site.owner, "wave_started", 1),
            eventOf(t.client2.owner, "order_allocated", "")
          ])
        ))
        yield* publisher.publishAll([])
        const rolledBack = yield* atomically(Effect.zipRight(
          publisher.publish(eventOf(t.site.owner, "preadvice_received", null)),
          Effect.fail("undone")
        )).pipe(Effect.flip)
        assert.strictEqual(rolledBack, "undone")

        const events = yield* webhooks.eventsBetween(before, 2147483647, 100)
        const site_id = t.site.owner.site_id
        assert.deepStrictEqual(events.map(({ created_at: _, id: __, ...event }) => event), [
          { event_type: "order_shipped", site_id, client_id: t.client1.owner.client_id, data: JSON.stringify(data) },
          { event_type: "wave_started", site_id, client_id: null, data: "1" },
          { event_type: "order_allocated", site_id, client_id: t.client2.owner.client_id, data: "\"\"" }
        ])
        assert.isTrue(events.every((event, i) => event.id > (i === 0 ? before : events[i - 1].id)))
        for (const event of events) {
          assert.strictEqual(new Date(event.created_at).toISOString(), event.created_at)
          assert.isBelow(Math.abs(Date.parse(event.created_at) - Date.now()), 60_000)
        }
        const ids = events.map((event) => event.id)
        assert.deepStrictEqual((yield* webhooks.eventsBetween(before, ids[2], 2)).map((e) => e.id), ids.slice(0, 2))
        assert.deepStrictEqual((yield* webhooks.eventsBetween(ids[0], ids[1], 100)).map((e) => e.id), [ids[1]])
      }))
  })

  describe("WebhookRepository", () => {
    it.effect("inserts, finds, updates and removes webhooks, and lists those a scope sees by id", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const t = yield* makeTenants
        const input = hook("order_shipped", { secret: "" })
        const id = yield* webhooks.insert(t.client1.owner, input, "2030-01-01T12:00:00.000Z")
        assert.strictEqual(typeof id, "number")
        const stored = { id, ...t.client1.owner, ...input, created_at: "2030-01-01T12:00:00.000Z" }
        assert.deepStrictEqual(yield* webhooks.find(id), Option.some(stored))
        const ofSite = yield* webhooks.insert(t.site.owner, hook("wave_started", { enabled: false }), stored.created_at)
        yield* webhooks.insert(t.other.owner, hook("wave_started"), "2030-01-01T12:00:00.000Z")

        assert.deepStrictEqual((yield* webhooks.list(t.site.scope, {})).map((w) => w.id), [id, ofSite])
        assert.deepStrictEqual(yield* webhooks.list(t.client1.scope, {}), [stored])
        assert.deepStrictEqual(yield* webhooks.list(t.client2.scope, {}), [])
        assert.deepStrictEqual((yield* webhooks.list(t.site.scope, { offset: 1 })).map((w) => w.id), [ofSite])
        assert.isFalse(Option.getOrThrow(yield* webhooks.find(ofSite)).enabled)

        const changed = hook("preadvice_received", { secret: "s3cret", enabled: false })
        assert.isTrue(yield* webhooks.update(id, changed))
        assert.deepStrictEqual(yield* webhooks.find(id), Option.some({ ...stored, ...changed }))
        yield* webhooks.remove(id)
        assert.isTrue(Option.isNone(yield* webhooks.find(id)))
        assert.isFalse(yield* webhooks.update(id, changed))
      }))

    it.effect("fans events out once to the enabled webhooks they match, moving every webhook past them", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const t = yield* makeTenants
        const created = "2030-01-01T12:00:00.000Z"
        const ofSite = yield* webhooks.insert(t.site.owner, hook("order_shipped"), created)
        const ofClient = yield* webhooks.insert(t.client1.owner, hook("order_shipped"), created)
        const disabled = yield* webhooks.insert(t.site.owner, hook("wave_started", { enabled: false }), created)
        const elsewhere = yield* webhooks.insert(t.other.owner, hook("order_shipped"), created)
        const ids = yield* publishAndFanOut([
          eventOf(t.client1.owner, "order_shipped", 1),
          eventOf(t.client2.owner, "order_shipped", 2),
          eventOf(t.site.owner, "wave_started", 3),
          eventOf(t.other.owner, "order_shipped", 4),
          eventOf(t.site.owner, "order_allocated", 5)
        ], farFuture)
        const eventIds = (id: number) => Effect.map(webhooks.deliveries(id, {}), (log) => log.map((d) => d.event_id))
        assert.deepStrictEqual(yield* eventIds(ofSite), [ids[1], ids[0]])
        assert.deepStrictEqual(yield* eventIds(ofClient), [ids[0]])
        assert.deepStrictEqual(yield* eventIds(disabled), [])
        assert.deepStrictEqual(yield* eventIds(elsewhere), [ids[3]])

        // Again: nothing new. Enabled later, a webhook does not get what it skipped.
        yield* webhooks.fanOut(ids[4], farFuture)
        yield* webhooks.update(disabled, hook("wave_started"))
        yield* webhooks.fanOut(ids[4], farFuture)
        assert.deepStrictEqual(yield* eventIds(ofSite), [ids[1], ids[0]])
        assert.deepStrictEqual(yield* eventIds(disabled), [])
        // Nor does one made after the events.
        const late = yield* webhooks.insert(t.site.owner, hook("order_shipped"), created)
        yield* webhooks.fanOut(ids[4], farFuture)
        assert.deepStrictEqual(yield* eventIds(late), [])
        const more = yield* publishAndFanOut([eventOf(t.client1.owner, "order_shipped", 6)], farFuture)
        assert.deepStrictEqual(yield* eventIds(late), more)
        assert.deepStrictEqual(yield* eventIds(ofClient), [more[0], ids[0]])
      }))

    it.effect("settles on the last event id, or what it knew while an earlier event is still being written", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const publisher = yield* EventPublisher
        const { atomically } = yield* Transactor
        const t = yield* makeTenants
        const before = yield* lastEventId
        assert.strictEqual(yield* webhooks.settledEventId(before), before)
        assert.strictEqual(yield* webhooks.settledEventId(before + 5), before + 5)
        yield* atomically(publisher.publish(eventOf(t.site.owner, "wave_started", 1)))
        const committed = yield* lastEventId
        assert.isAbove(committed, before)
        assert.strictEqual(yield* webhooks.settledEventId(before), committed)

        // A first writer holds an id; a second commits a later one.
        const written = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(atomically(Effect.gen(function*() {
          yield* publisher.publish(eventOf(t.site.owner, "wave_started", 2))
          yield* Deferred.succeed(written, undefined)
          yield* Deferred.await(release)
        })))
        yield* Deferred.await(written)
        const second = yield* Effect.fork(atomically(publisher.publish(eventOf(t.site.owner, "wave_started", 3))))
        const settled = yield* Effect.fork(webhooks.settledEventId(committed))
        yield* Effect.sleep("700 millis")
        // Answered while the first writer is open: never past its event.
        const early = yield* Fiber.poll(settled)
        if (Option.isSome(early)) assert.isTrue(Exit.isSuccess(early.value) && early.value.value === committed)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        yield* Fiber.join(second)
        const last = yield* lastEventId
        const answer = yield* Fiber.join(settled)
        assert.isTrue(answer >= committed && answer <= last, `settled at ${answer}`)
        assert.strictEqual(yield* webhooks.settledEventId(committed), last)
      }))

    it.effect("does not settle past an event committed late with a lower id, nor make a writer wait (PostgreSQL)", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const webhooks = yield* WebhookRepository
        const publisher = yield* EventPublisher
        const { atomically } = yield* Transactor
        const t = yield* makeTenants
        // SQLite commits one writer at a time: no second one gets past an open first.
        const lateCommit = Effect.gen(function*() {
          yield* atomically(publisher.publish(eventOf(t.site.owner, "wave_started", 1)))
          const committed = yield* lastEventId
          assert.strictEqual(yield* webhooks.settledEventId(committed - 1), committed)
          const written = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const first = yield* Effect.fork(atomically(Effect.gen(function*() {
            yield* publisher.publish(eventOf(t.site.owner, "wave_started", 2))
            yield* Deferred.succeed(written, undefined)
            yield* Deferred.await(release)
          })))
          yield* Deferred.await(written)
          yield* atomically(publisher.publish(eventOf(t.site.owner, "wave_started", 3)))
          const later = yield* lastEventId
          // Settling while the first writer is open and a higher id is committed: nothing waits on
          // the events table (a lock request there would queue every writer behind it).
          const settling = yield* Effect.fork(webhooks.settledEventId(committed))
          let waits = 0
          yield* sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM pg_locks
            WHERE NOT granted AND locktype = 'relation' AND relation = 'events'::regclass`.pipe(
            Effect.map((rows) => (waits += rows[0].n)),
            Effect.repeat({ until: () => settling.unsafePoll() !== null, times: 200 })
          )
          assert.strictEqual(waits, 0, "a lock on events was waited for")
          assert.strictEqual(yield* Fiber.join(settling), committed, "settled past an open writer")
          assert.strictEqual(yield* webhooks.settledEventId(committed), committed, "settled past an open writer")
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(first)
          const events = yield* webhooks.eventsBetween(committed, yield* webhooks.settledEventId(committed), 10)
          assert.deepStrictEqual(events.map((event) => event.data), ["2", "3"])
          assert.isBelow(events[0].id, later)
          assert.strictEqual(events[1].id, later)
        })
        yield* sql.onDialectOrElse({ pg: () => lateCommit, orElse: () => Effect.void })
      }))

    it.effect("leases each enabled webhook's oldest pending delivery once, recording attempts under the lease", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const t = yield* makeTenants
        const created = "2030-01-01T12:00:00.000Z"
        const first = yield* webhooks.insert(t.site.owner, hook("order_shipped", { secret: "key" }), created)
        const second = yield* webhooks.insert(t.client1.owner, hook("order_shipped"), created)
        const paused = yield* webhooks.insert(t.client2.owner, hook("order_shipped"), created)
        const due = "2040-01-01T00:00:00.000Z"
        const ids = yield* publishAndFanOut([
          eventOf(t.client1.owner, "order_shipped", { n: 1 }),
          eventOf(t.client2.owner, "order_shipped", { n: 2 })
        ], due)
        yield* webhooks.update(paused, hook("order_shipped", { enabled: false }))
        const now = "2040-01-01T00:00:01.000Z"
        const lease = "2040-01-01T00:01:00.000Z"
        assert.deepStrictEqual(yield* webhooks.claim("2039-12-31T23:59:59.000Z", lease, 10), [])

        const claimed = yield* webhooks.claim(now, lease, 10)
        assert.strictEqual(claimed.length, 2)
        const firstUrl = Option.getOrThrow(yield* webhooks.find(first)).url
        const ofFirst = claimed.find((d) => d.url === firstUrl)!
        const ofSecond = claimed.find((d) => d !== ofFirst)!
        assert.deepStrictEqual({ ...ofFirst, event: { ...ofFirst.event, created_at: "" } }, {
          id: ofFirst.id,
          lockedUntil: lease,
          attempts: 1,
          createdAt: due,
          url: firstUrl,
          secret: "key",
          event: {
            id: ids[0],
            event_type: "order_shipped",
            site_id: t.site.owner.site_id,
            client_id: t.client1.owner.client_id,
            created_at: "",
            data: JSON.stringify({ n: 1 })
          }
        })
        assert.deepStrictEqual([ofSecond.event.id, ofSecond.secret], [ids[0], null])
        // Leased: not again until the lease ends.
        assert.deepStrictEqual(yield* webhooks.claim(now, lease, 10), [])

        const delivered = {
          status: "delivered",
          lastStatusCode: 204,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: now
        } as const
        assert.isFalse(yield* webhooks.complete(ofFirst.id, "2040-01-01T00:00:30.000Z", delivered))
        assert.isTrue(yield* webhooks.complete(ofFirst.id, lease, delivered))
        assert.isFalse(yield* webhooks.complete(ofFirst.id, lease, delivered))
        // The first webhook's next delivery is its head now.
        const next = yield* webhooks.claim(now, lease, 10)
        assert.deepStrictEqual(next.map((d) => [d.url, d.event.id, d.attempts]), [[firstUrl, ids[1], 1]])
        const failed = {
          status: "failed",
          lastStatusCode: null,
          lastError: "timeout",
          nextAttemptAt: null,
          deliveredAt: null
        } as const
        assert.isTrue(yield* webhooks.complete(next[0].id, lease, failed))

        // Released, the second's delivery is free at once; a failed attempt waits for its time.
        yield* webhooks.release(ofSecond.id, "2040-01-01T00:00:30.000Z")
        assert.deepStrictEqual(yield* webhooks.claim(now, lease, 10), [])
        yield* webhooks.release(ofSecond.id, lease)
        const again = yield* webhooks.claim(now, lease, 10)
        assert.deepStrictEqual(again.map((d) => [d.id, d.attempts]), [[ofSecond.id, 2]])
        assert.isTrue(
          yield* webhooks.complete(ofSecond.id, lease, {
            status: "pending",
            lastStatusCode: 500,
            lastError: "",
            nextAttemptAt: "2040-01-01T00:05:00.000Z",
            deliveredAt: null
          })
        )
        assert.deepStrictEqual(yield* webhooks.claim("2040-01-01T00:04:59.000Z", "2040-01-01T00:06:00.000Z", 10), [])
        // An expired lease counts as none.
        const late = yield* webhooks.claim("2040-01-01T00:05:00.000Z", "2040-01-01T00:06:00.000Z", 1)
        assert.deepStrictEqual(late.map((d) => d.id), [ofSecond.id])

        const log = yield* webhooks.deliveries(second, {})
        assert.deepStrictEqual(log, [{
          event_id: ids[0],
          event_type: "order_shipped",
          status: "pending",
          attempts: 3,
          last_status_code: 500,
          last_error: "",
          next_attempt_at: "2040-01-01T00:05:00.000Z",
          delivered_at: null,
          created_at: due
        }])
        const ofFirstLog = yield* webhooks.deliveries(first, {})
        assert.deepStrictEqual(ofFirstLog.map((d) => [d.event_id, d.status, d.last_error, d.delivered_at]), [
          [ids[1], "failed", "timeout", null],
          [ids[0], "delivered", null, now]
        ])
        assert.deepStrictEqual(yield* webhooks.deliveries(first, { limit: 1, offset: 1 }), [ofFirstLog[1]])
        assert.deepStrictEqual(yield* webhooks.deliveries(paused, {}), [{
          event_id: ids[1],
          event_type: "order_shipped",
          status: "pending",
          attempts: 0,
          last_status_code: null,
          last_error: null,
          next_attempt_at: due,
          delivered_at: null,
          created_at: due
        }])

        // Removed, a webhook takes its log along.
        yield* webhooks.remove(first)
        assert.deepStrictEqual(yield* webhooks.deliveries(first, {}), [])
      }))

    it.effect("never leases one delivery to two claims at once", () =>
      Effect.gen(function*() {
        const webhooks = yield* WebhookRepository
        const t = yield* makeTenants
        const created = "2030-01-01T12:00:00.000Z"
        for (let i = 0; i < 6; i++) yield* webhooks.insert(t.site.owner, hook("wave_started"), created)
        yield* publishAndFanOut([eventOf(t.site.owner, "wave_started", 1)], "2035-01-01T00:00:00.000Z")
        const claims = yield* Effect.all(
          Array.from({ length: 4 }, () => webhooks.claim("2035-01-01T00:00:01.000Z", "2035-01-01T00:01:00.000Z", 3)),
          { concurrency: "unbounded" }
        )
        // A claim that read rows another one then leased may come back short (PostgreSQL rechecks a
        // row it waited for): what the racing claims left, a later claim takes, and none twice.
        const rest = yield* webhooks.claim("2035-01-01T00:00:01.000Z", "2035-01-01T00:01:00.000Z", 6)
        const ids = [...claims.flat(), ...rest].map((d) => d.id)
        assert.strictEqual(new Set(ids).size, ids.length)
        assert.strictEqual(ids.length, 6)
      }))
  })
})
