import { assert, describe, it, layer } from "@effect/vitest"
import {
  afterAttempt,
  defaultDeliveryPolicy,
  type DeliveryPolicy,
  type DeliveryStatus,
  dueDeliveries,
  retryDelay,
  WebhookDeliveryPolicy
} from "@wms/core"
import { WebhookWorker } from "@wms/http"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { onApiTestStores } from "../../../testing/databases.js"
import { propertyRuns } from "../../../testing/properties.js"
import { Api, testServer } from "../../../testing/server.js"
import {
  type Answer,
  deliveredOrder,
  eventually,
  newSite,
  outOfOrder,
  raiseReceived,
  receiver
} from "./WebhooksReceiver.js"

const answer = fc.constantFrom<Answer>(200, 500, "timeout")

interface Simulated {
  readonly webhookId: number
  readonly eventId: number
  status: DeliveryStatus
  nextAttemptAt: number
  lockedUntil: number | null
  attempts: number
  readonly dueSince: number
  finishedAt: number | null
}

interface Attempt {
  readonly webhookId: number
  readonly eventId: number
  readonly at: number
  readonly answer: Answer
}

/**
 * Runs the scheduling rules on a simulated clock: events become due at their time, each due
 * delivery is attempted with the next scripted answer (then 200 once the script runs out), and an
 * attempt lasts 10 ms, or the policy's timeout when it times out.
 */
const simulate = (
  policy: DeliveryPolicy,
  events: ReadonlyArray<{ readonly webhookId: number; readonly eventId: number; readonly at: number }>,
  script: ReadonlyArray<Answer>
) => {
  const deliveries: Array<Simulated> = events.map((e) => ({
    ...e,
    status: "pending",
    nextAttemptAt: e.at,
    lockedUntil: null,
    attempts: 0,
    dueSince: e.at,
    finishedAt: null
  }))
  const attempts: Array<Attempt> = []
  let next = 0
  let now = 0
  for (let round = 0; round < 10_000; round++) {
    const due = dueDeliveries(deliveries, now)
    if (due.length === 0) {
      // Every webhook's oldest pending delivery, due or not: the clock jumps to the first of them.
      const heads = dueDeliveries(deliveries, Number.POSITIVE_INFINITY)
      if (heads.length === 0) break
      now = Math.max(now + 1, Math.min(...heads.map((d) => d.nextAttemptAt)))
      continue
    }
    for (const delivery of due) {
      const given = next < script.length ? script[next++] : 200
      const ended = now + (given === "timeout" ? policy.timeoutMillis : 10)
      delivery.attempts++
      attempts.push({ webhookId: delivery.webhookId, eventId: delivery.eventId, at: now, answer: given })
      const result = afterAttempt(policy, delivery, given === 200, ended)
      delivery.status = result.status
      delivery.nextAttemptAt = result.nextAttemptAt ?? ended
      delivery.finishedAt = result.status === "pending" ? null : ended
      // The worker takes a webhook's next delivery only once this attempt has ended.
      for (const other of deliveries) {
        if (other.webhookId === delivery.webhookId && other.status === "pending") {
          other.nextAttemptAt = Math.max(other.nextAttemptAt, ended)
        }
      }
    }
    now += 1
  }
  return { deliveries, attempts }
}

describe("webhook scheduling on a simulated clock", () => {
  it.prop(
    "whatever the answers, every event is delivered or given up after 24 hours, and one webhook's go in order",
    [
      fc.array(fc.record({ webhookId: fc.integer({ min: 1, max: 3 }), gap: fc.integer({ min: 0, max: 120_000 }) }), {
        minLength: 1,
        maxLength: 8
      }),
      fc.array(answer, { maxLength: 60 })
    ],
    ([raised, script]) => {
      let at = 0
      const events = raised.map((e, index) => ({ webhookId: e.webhookId, eventId: index + 1, at: (at += e.gap) }))
      const { attempts, deliveries } = simulate(defaultDeliveryPolicy, events, script)
      for (const delivery of deliveries) {
        assert.notStrictEqual(delivery.status, "pending", `event ${delivery.eventId} was left pending`)
        if (delivery.status === "failed") {
          assert.isAtLeast(delivery.finishedAt! - delivery.dueSince, defaultDeliveryPolicy.retryForMillis)
        }
      }
      for (const webhookId of new Set(events.map((e) => e.webhookId))) {
        const own = attempts.filter((a) => a.webhookId === webhookId)
        for (let i = 1; i < own.length; i++) {
          assert.isAtLeast(own[i].eventId, own[i - 1].eventId, "an older event was attempted after a newer one")
        }
        for (const attempt of own) {
          const older = deliveries.filter((d) => d.webhookId === webhookId && d.eventId < attempt.eventId)
          for (const d of older) {
            assert.isAtMost(d.finishedAt!, attempt.at, "attempted before the event before it ended")
          }
        }
      }
    },
    { fastCheck: { numRuns: propertyRuns(300) } }
  )

  it("the schedule retries within a minute first and keeps at it for at least 24 hours", () => {
    assert.isAtMost(retryDelay(defaultDeliveryPolicy, 1), 60_000)
    const failing: Array<Answer> = Array(100).fill(500)
    const { attempts, deliveries } = simulate(defaultDeliveryPolicy, [{ webhookId: 1, eventId: 1, at: 0 }], failing)
    assert.strictEqual(deliveries[0].status, "failed")
    const span = attempts[attempts.length - 1].at - attempts[0].at
    assert.isAtLeast(span, 24 * 3_600_000)
    assert.isBelow(span, 26 * 3_600_000)
    const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i].at)
    const delays = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000]
    // Each gap is the delay plus the 10 ms the simulated attempt took.
    assert.deepStrictEqual(gaps.slice(0, 7), delays.map((d) => d + 10))
    assert.isTrue(gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1]), "the delays never shrink")
  })

  it("a 2xx delivers at once; a lease in force keeps a due delivery from being taken", () => {
    assert.deepStrictEqual(afterAttempt(defaultDeliveryPolicy, { attempts: 1, dueSince: 0 }, true, 50), {
      status: "delivered",
      nextAttemptAt: null,
      deliveredAt: 50
    })
    const leased = { webhookId: 1, eventId: 1, status: "pending" as const, nextAttemptAt: 0, lockedUntil: 100 }
    assert.deepStrictEqual(dueDeliveries([leased], 99), [])
    assert.deepStrictEqual(dueDeliveries([leased], 100), [leased])
  })
})

// The real worker, with short timings so a run of failures takes a second or two.
const fast = Layer.mergeAll(
  Layer.succeed(WebhookDeliveryPolicy, {
    timeoutMillis: 300,
    retryDelaysMillis: [50, 100, 150],
    retryForMillis: 60_000
  }),
  Layer.succeed(WebhookWorker.WebhookWorkerOptions, {
    pollIntervalMillis: 50,
    concurrency: 8,
    leaseMarginMillis: 1_000
  })
)

const servers = onApiTestStores((db) =>
  // The receivers listen on loopback.
  testServer(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url, { webhookAllowPrivate: true }).pipe(
    Layer.provide(fast)
  )
)

for (const [label, server] of servers) {
  layer(server, { timeout: 120_000, excludeTestServices: true })(`the webhook worker on ${label}`, (it) => {
    it.effect.prop(
      "for any answers of the receiver no event is lost and none arrives out of order",
      [fc.array(answer, { maxLength: 6 }), fc.integer({ min: 1, max: 3 })],
      ([script, count]) =>
        Effect.gen(function*() {
          const api = yield* Api
          const token = yield* api.login()
          const site = yield* newSite(api, token)
          let next = 0
          const hook = yield* receiver(() => (next < script.length ? script[next++] : 200))
          const created = yield* api.request("POST", "/webhooks", {
            token,
            site,
            body: { event_type: "preadvice_received", url: hook.url }
          })
          assert.strictEqual(created.status, 204)
          const preAdvices: Array<string> = []
          for (let i = 0; i < count; i++) preAdvices.push(yield* raiseReceived(api, token, site))
          yield* eventually(
            () => deliveredOrder(hook.received()).length === count,
            () => JSON.stringify(hook.received())
          )
          const delivered = hook.received().filter((r) => r.answer === 200).map((r) => JSON.parse(r.body))
          const eventIds = deliveredOrder(hook.received())
          assert.deepStrictEqual(eventIds, [...eventIds].sort((a, b) => a - b))
          assert.deepStrictEqual(delivered.map((p) => p.data.pre_advice_id), preAdvices)
          assert.deepStrictEqual(outOfOrder(hook.received(), eventIds), [])
        }).pipe(Effect.scoped),
      { timeout: 120_000, fastCheck: { numRuns: propertyRuns(6) } }
    )
  })
}
