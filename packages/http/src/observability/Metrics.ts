/**
 * Metrics for Prometheus: requests by method, route template and status, their durations, the
 * process's own figures (CPU, memory, event loop lag, GC, from prom-client), and the webhook
 * deliveries waiting and failed, read from the database at each scrape. `GET /metrics` serves
 * them in the text exposition format.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { collectDefaultMetrics, Gauge, Registry } from "prom-client"
import { invalidToken, missingToken } from "../auth/Tokens.js"
import { responseOf } from "../middleware/ErrorResponses.js"

const durationBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** What one method and route template were answered: by status, and the durations by bucket. */
interface RouteSeries {
  readonly labels: string
  readonly statuses: Map<number, number>
  /** Observations per bucket, not yet cumulative; the last is above every bound (`+Inf` only). */
  readonly buckets: Array<number>
  sum: number
  count: number
}

const labelValue = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")

/**
 * `http_requests_total` and `http_request_duration_seconds`, counted in plain numbers and written
 * in the exposition format at each scrape. prom-client's counter and histogram validate and hash
 * their labels on every call, even through a labelled child, which the hot routes felt (README,
 * Performance).
 */
const requestSeries = () => {
  const series = new Map<string, RouteSeries>()
  return {
    record: (method: string, route: string, status: number, seconds: number) => {
      const key = `${method} ${route}`
      let one = series.get(key)
      if (one === undefined) {
        one = {
          labels: `method="${labelValue(method)}",route="${labelValue(route)}"`,
          statuses: new Map(),
          buckets: new Array(durationBuckets.length + 1).fill(0),
          sum: 0,
          count: 0
        }
        series.set(key, one)
      }
      one.statuses.set(status, (one.statuses.get(status) ?? 0) + 1)
      let bucket = 0
      while (bucket < durationBuckets.length && seconds > durationBuckets[bucket]) bucket++
      one.buckets[bucket]++
      one.sum += seconds
      one.count++
    },
    text: (): string => {
      const requests = [
        "# HELP http_requests_total HTTP requests answered, by method, route template and status",
        "# TYPE http_requests_total counter"
      ]
      const durations = [
        "# HELP http_request_duration_seconds Time from a request's arrival to its answer, by method and route template",
        "# TYPE http_request_duration_seconds histogram"
      ]
      for (const one of series.values()) {
        for (const [status, count] of one.statuses) {
          requests.push(`http_requests_total{${one.labels},status="${status}"} ${count}`)
        }
        let cumulative = 0
        one.buckets.forEach((count, i) => {
          cumulative += count
          const le = i < durationBuckets.length ? String(durationBuckets[i]) : "+Inf"
          durations.push(`http_request_duration_seconds_bucket{le="${le}",${one.labels}} ${cumulative}`)
        })
        durations.push(`http_request_duration_seconds_sum{${one.labels}} ${one.sum}`)
        durations.push(`http_request_duration_seconds_count{${one.labels}} ${one.count}`)
      }
      return `${requests.join("\n")}\n\n${durations.join("\n")}\n`
    }
  }
}

/** One server's metrics. */
export const make = () => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const deliveries = new Gauge({
    name: "wms_webhook_deliveries",
    help: "Webhook deliveries by status (pending: waiting for an attempt or a retry; failed: given up)",
    labelNames: ["status"] as const,
    registers: [registry]
  })
  const requests = requestSeries()
  return {
    deliveries,
    contentType: registry.contentType,
    record: requests.record,
    /** Every metric in the text exposition format. */
    text: async () => `${await registry.metrics()}\n${requests.text()}`
  }
}

export type Metrics = ReturnType<typeof make>

const digest = (text: string) => createHash("sha256").update(text).digest()

/**
 * Why an `authorization` header does not carry `Bearer <token>`, or undefined when it does. Compared
 * as SHA-256 digests in constant time, so that neither the time taken nor the lengths tell how much
 * of a guess was right.
 */
export const refusal = (token: Redacted.Redacted, header: string | undefined): string | undefined => {
  if (header === undefined || header.trim() === "") return missingToken.message
  return timingSafeEqual(digest(header), digest(`Bearer ${Redacted.value(token)}`)) ? undefined : invalidToken.message
}

/**
 * `GET /metrics` on the API's router: with `token`, only for `Authorization: Bearer <token>` (else
 * 401 `{message}`); without, for anyone, like `/health`.
 */
export const route = (metrics: Metrics, token: Option.Option<Redacted.Redacted>) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const countDeliveries = sql<{ status: string; n: number }>`SELECT status, CAST(count(*) AS INTEGER) AS n
      FROM deliveries WHERE status IN ('pending', 'failed') GROUP BY status`
      const serve = Effect.gen(function*() {
        const counts = yield* Effect.orElseSucceed(countDeliveries, () => [])
        for (const status of ["pending", "failed"]) {
          metrics.deliveries.set({ status }, counts.find((row) => row.status === status)?.n ?? 0)
        }
        const text = yield* Effect.promise(metrics.text)
        return HttpServerResponse.text(text, { contentType: metrics.contentType })
      })
      yield* router.get(
        "/metrics",
        Option.isNone(token) ? serve : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const refused = refusal(token.value, request.headers.authorization)
          return refused === undefined ? serve : Effect.succeed(responseOf({ status: 401, body: { message: refused } }))
        })
      )
    })
  )
