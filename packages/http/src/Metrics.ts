/**
 * Metrics for Prometheus (prom-client): requests by method, route template and status, their
 * durations, the process's own figures (CPU, memory, event loop lag, GC), and the webhook
 * deliveries waiting and failed, read from the database at each scrape. `GET /metrics` serves
 * them in the text exposition format.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client"

/** One server's metrics. */
export const make = () => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route template and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry]
  })
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by method and route template",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry]
  })
  const deliveries = new Gauge({
    name: "wms_webhook_deliveries",
    help: "Webhook deliveries by status (pending: waiting for an attempt or a retry; failed: given up)",
    labelNames: ["status"] as const,
    registers: [registry]
  })
  const children = new Map<string, {
    readonly count: Counter.Internal
    readonly duration: Histogram.Internal<"method" | "route">
  }>()
  return {
    registry,
    deliveries,
    record: (method: string, route: string, status: number, seconds: number) => {
      // The labelled children are kept: prom-client hashes a label set on every call otherwise,
      // a fifth of a hot request's cost. Routes are templates, so the keys stay few.
      const key = `${method} ${route} ${status}`
      let child = children.get(key)
      if (child === undefined) {
        child = { count: requests.labels(method, route, String(status)), duration: durations.labels(method, route) }
        children.set(key, child)
      }
      child.count.inc()
      child.duration.observe(seconds)
    }
  }
}

export type Metrics = ReturnType<typeof make>

/** `GET /metrics` on the API's router: no token, like `/health`. */
export const route = (metrics: Metrics) =>
  HttpApiBuilder.Router.use((router) => Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const countDeliveries = sql<{ status: string; n: number }>`SELECT status, CAST(count(*) AS INTEGER) AS n
      FROM deliveries WHERE status IN ('pending', 'failed') GROUP BY status`
    yield* router.get("/metrics", Effect.gen(function*() {
      const counts = yield* Effect.orElseSucceed(countDeliveries, () => [])
      for (const status of ["pending", "failed"]) {
        metrics.deliveries.set({ status }, counts.find((row) => row.status === status)?.n ?? 0)
      }
      const text = yield* Effect.promise(() => metrics.registry.metrics())
      return HttpServerResponse.text(text, { contentType: metrics.registry.contentType })
    }))
  }))
