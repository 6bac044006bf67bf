/**
 * The webhook worker: a background fiber that turns committed outbox events into deliveries,
 * posts them, retries them on the schedule of the delivery policy, and feeds the in-process
 * `EventSubscriptions`. The bundled server runs it; an embedding application adds `layer` next to
 * `Warehouse.layer`. Every process on one database may run it: deliveries are leased, so no two
 * attempts of one delivery run at once, and a dead process's lease simply runs out.
 *
 * Each attempt checks its target again (`WebhookTargets`): the URL's host, then every address the
 * host resolves to, in the lookup the connection itself uses, so a name that resolves to a public
 * address at create and to an internal one now (DNS rebinding) is refused, and the address checked
 * is the one connected to. Redirects are not followed: a 3xx is a failed attempt.
 */
import { HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import {
  addressKind,
  afterAttempt,
  AllowPrivateWebhookTargets,
  type ClaimedDelivery,
  describeKind,
  eventPayload,
  EventSubscriptions,
  isRefused,
  isSuccessStatus,
  signingInput,
  TimeZone,
  Transactor,
  urlRefusal,
  WebhookDeliveryPolicy,
  webhookId,
  WebhookRepository
} from "@wms/core"
import { Clock, Context, Effect, FiberSet, Layer, Option, Queue, Ref, type Scope } from "effect"
import { createHmac } from "node:crypto"
import { type LookupAddress, promises as dns } from "node:dns"
import type { LookupFunction } from "node:net"

/** How the worker runs, apart from the delivery policy (`WebhookDeliveryPolicy`). */
export interface WorkerOptions {
  /** How often the outbox and the due deliveries are looked at when nothing wakes the worker. */
  readonly pollIntervalMillis: number
  /** The most attempts in flight at once in this process (at most one per webhook). */
  readonly concurrency: number
  /** Added to the attempt timeout for the lease, so a live attempt never loses it. */
  readonly leaseMarginMillis: number
}

/** The worker options in use: 250 ms polling, 16 attempts at once, a 10 s lease margin. */
export class WebhookWorkerOptions extends Context.Reference<WebhookWorkerOptions>()(
  "@wms/http/WebhookWorkerOptions",
  { defaultValue: (): WorkerOptions => ({ pollIntervalMillis: 250, concurrency: 16, leaseMarginMillis: 10_000 }) }
) {}

/** Every address a host name resolves to. */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

/**
 * How the worker resolves a webhook's host name: the system's resolver (`dns.lookup`, as Node's
 * own connections use) unless another is provided, as tests do to resolve names without DNS.
 */
export class WebhookResolver extends Context.Reference<WebhookResolver>()(
  "@wms/http/WebhookResolver",
  { defaultValue: (): Resolve => (hostname) => dns.lookup(hostname, { all: true }) }
) {}

/** A target refused by the rule of `WebhookTargets`; its message is the delivery's `last_error`. */
class RefusedTarget extends Error {}

const familyOf = (family: number | "IPv4" | "IPv6" | undefined): number =>
  family === "IPv4" ? 4 : family === "IPv6" ? 6 : family ?? 0

/**
 * The lookup of the worker's connections: resolves the host, refuses it when any of its addresses
 * is refused, and hands the connection the very addresses it checked.
 */
export const checkedLookup =
  (resolve: Resolve, allowPrivate: boolean): LookupFunction => (hostname, options, callback) => {
    resolve(hostname).then((addresses) => {
      for (const { address } of addresses) {
        const kind = addressKind(address)
        if (kind === undefined || isRefused(kind, allowPrivate)) {
          const what = kind === undefined ? "not an IP address" : describeKind(kind)
          return callback(new RefusedTarget(`Refused: ${hostname} resolves to ${address}, ${what}`), "")
        }
      }
      const family = familyOf(options.family)
      const usable = addresses.filter((address) => family === 0 || address.family === family)
      if (usable.length === 0) {
        return callback(Object.assign(new Error(`No address of ${hostname}`), { code: "ENOTFOUND" }), "")
      }
      if (options.all === true) callback(null, [...usable])
      else callback(null, usable[0].address, usable[0].family)
    }, (error: NodeJS.ErrnoException) => callback(error, ""))
  }

/** `webhook-signature` of the Standard Webhooks scheme: HMAC-SHA256 keyed with the secret's UTF-8 bytes. */
export const signature = (secret: string, id: string, timestampSeconds: number, body: string): string =>
  `v1,${
    createHmac("sha256", Buffer.from(secret, "utf8")).update(signingInput(id, timestampSeconds, body), "utf8").digest(
      "base64"
    )
  }`

/** What an attempt got: the answer's status, or why it has none; why it failed when it did. */
interface Outcome {
  readonly statusCode: number | null
  readonly error: string | null
}

const iso = (millis: number) => new Date(millis).toISOString()

const describe = (failure: unknown): string => {
  // A refusal reaches the client as the cause of its transport error, which does not quote it.
  const error = HttpClientError.isHttpClientError(failure) && failure.cause instanceof RefusedTarget
    ? failure.cause
    : failure
  const message = error instanceof Error || (typeof error === "object" && error !== null && "message" in error)
    ? String((error as { message: unknown }).message)
    : String(error)
  return message.slice(0, 500)
}

/** What one worker's steps share: its ports, its settings, its HTTP client and its count of attempts in flight. */
interface Worker {
  readonly repository: Context.Tag.Service<WebhookRepository>
  readonly subscriptions: EventSubscriptions
  readonly policy: Context.Tag.Service<WebhookDeliveryPolicy>
  readonly timeZone: string
  readonly allowPrivate: boolean
  readonly client: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope>
  readonly inFlight: Ref.Ref<number>
  readonly wake: Queue.Queue<void>
}

/** POSTs one delivery's body, signed; any failure to get an answer is an outcome, not an error. */
const post = (
  { allowPrivate, client, policy }: Worker,
  delivery: ClaimedDelivery,
  body: string,
  timestampSeconds: number
): Effect.Effect<Outcome> => {
  // Node connects to an address in the URL without a lookup, so the host is checked here first
  // (`localhost` and the metadata names too, whatever they resolve to).
  const refusal = urlRefusal(delivery.url, allowPrivate)
  if (refusal !== undefined) return Effect.succeed({ statusCode: null, error: `Refused: ${refusal}` })
  const id = webhookId(delivery.event.id)
  const headers: Record<string, string> = { "webhook-id": id, "webhook-timestamp": String(timestampSeconds) }
  if (delivery.secret !== null) {
    headers["x-webhook-secret"] = delivery.secret
    headers["webhook-signature"] = signature(delivery.secret, id, timestampSeconds, body)
  }
  return client.execute(
    HttpClientRequest.post(delivery.url).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyText(body, "application/json")
    )
  ).pipe(
    Effect.map((response) => ({ statusCode: response.status, error: null })),
    Effect.scoped,
    Effect.timeoutFail({
      duration: policy.timeoutMillis,
      onTimeout: () => new Error(`No answer within ${policy.timeoutMillis} ms`)
    }),
    Effect.catchAll((error) => Effect.succeed({ statusCode: null, error: describe(error) }))
  )
}

/** One attempt of a claimed delivery, its outcome written back; the worker is woken when it ends. */
const attempt = (worker: Worker, delivery: ClaimedDelivery) =>
  Effect.gen(function*() {
    const { policy, repository } = worker
    const body = JSON.stringify(eventPayload(delivery.event, worker.timeZone))
    const outcome = yield* post(worker, delivery, body, Math.floor((yield* Clock.currentTimeMillis) / 1000))
    const succeeded = outcome.statusCode !== null && isSuccessStatus(outcome.statusCode)
    const result = afterAttempt(
      policy,
      { attempts: delivery.attempts, dueSince: Date.parse(delivery.createdAt) },
      succeeded,
      yield* Clock.currentTimeMillis
    )
    yield* repository.complete(delivery.id, delivery.lockedUntil, {
      status: result.status,
      lastStatusCode: outcome.statusCode,
      lastError: succeeded ? null : (outcome.error ?? `HTTP ${outcome.statusCode}`),
      nextAttemptAt: result.nextAttemptAt === null ? null : iso(result.nextAttemptAt),
      deliveredAt: result.deliveredAt === null ? null : iso(result.deliveredAt)
    })
  }).pipe(
    // Stopping the server frees the delivery at once instead of leaving it to its lease.
    Effect.onInterrupt(() => worker.repository.release(delivery.id, delivery.lockedUntil)),
    Effect.catchAllCause((cause) => Effect.logWarning(`Webhook delivery ${delivery.id} failed to run`, cause)),
    Effect.ensuring(Effect.zipRight(Ref.update(worker.inFlight, (n) => n - 1), worker.wake.offer(undefined))),
    Effect.withSpan("WebhookWorker.attempt", { attributes: { delivery: delivery.id, event: delivery.event.id } })
  )

/** Hands the in-process subscribers the events after `after` up to `upTo`, in order. */
const feed = ({ repository, subscriptions, timeZone }: Worker, after: number, upTo: number) =>
  Effect.gen(function*() {
    let cursor = after
    while (cursor < upTo) {
      const events = yield* repository.eventsBetween(cursor, upTo, 500)
      if (events.length === 0) return
      for (const event of events) yield* subscriptions.notify(eventPayload(event, timeZone))
      cursor = events[events.length - 1].id
    }
  })

const run = Effect.gen(function*() {
  const { atomically } = yield* Transactor
  const options = yield* WebhookWorkerOptions
  const allowPrivate = yield* AllowPrivateWebhookTargets
  const agent = yield* NodeHttpClient.makeAgent({ lookup: checkedLookup(yield* WebhookResolver, allowPrivate) })
  const worker: Worker = {
    repository: yield* WebhookRepository,
    subscriptions: yield* EventSubscriptions,
    policy: yield* WebhookDeliveryPolicy,
    timeZone: yield* TimeZone,
    allowPrivate,
    // Scoped: the answer is never read, and closing the scope ends the request at once.
    client: HttpClient.withScope(yield* Effect.provideService(NodeHttpClient.make, NodeHttpClient.HttpAgent, agent)),
    inFlight: yield* Ref.make(0),
    wake: yield* Queue.sliding<void>(1)
  }
  const { policy, repository, subscriptions } = worker
  const attempts = yield* FiberSet.make()

  // Events up to `fanned` have their deliveries.
  let fanned = 0

  const step = Effect.gen(function*() {
    const upTo = yield* repository.settledEventId(fanned)
    if (upTo > fanned) {
      yield* atomically(repository.fanOut(upTo, iso(yield* Clock.currentTimeMillis)))
      fanned = upTo
    }
    const fed = yield* subscriptions.cursor
    if (Option.isSome(fed) && upTo > fed.value) yield* feed(worker, fed.value, upTo)
    const free = options.concurrency - (yield* Ref.get(worker.inFlight))
    if (free <= 0) return
    const now = yield* Clock.currentTimeMillis
    const lease = iso(now + policy.timeoutMillis + options.leaseMarginMillis)
    for (const delivery of yield* repository.claim(iso(now), lease, free)) {
      yield* Ref.update(worker.inFlight, (n) => n + 1)
      yield* FiberSet.run(attempts, attempt(worker, delivery))
    }
  }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("The webhook worker's round failed", cause)))

  return yield* step.pipe(
    Effect.zipRight(Effect.raceFirst(worker.wake.take, Effect.sleep(options.pollIntervalMillis))),
    Effect.forever
  )
})

/**
 * The worker as a layer: it runs while the layer's scope is open. Needs the warehouse services
 * (`Warehouse.layer`); posts with Node's HTTP client. Private targets are allowed as
 * `AllowPrivateWebhookTargets` says, which `Warehouse.layer({ allowPrivateWebhookTargets })` sets.
 */
export const layer: Layer.Layer<never, never, WebhookRepository | Transactor | EventSubscriptions> = Layer
  .scopedDiscard(Effect.forkScoped(run))
