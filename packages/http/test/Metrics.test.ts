/**
 * The request metrics and access lines, which the server writes by hand for speed: the exposition
 * text Prometheus reads, and access lines that stay JSON whatever the path.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { recordRequest } from "../src/observability/AccessLog.js"
import * as Metrics from "../src/observability/Metrics.js"

describe("request metrics", () => {
  it.effect("count requests by status and durations in cumulative buckets, with sum and count", () =>
    Effect.promise(async () => {
      const metrics = Metrics.make()
      metrics.record("GET", "/orders/:id", 200, 0.0004)
      metrics.record("GET", "/orders/:id", 200, 0.001)
      metrics.record("GET", "/orders/:id", 404, 0.003)
      metrics.record("GET", "/orders/:id", 200, 3)
      const lines = (await metrics.text()).split("\n")
      const labels = `method="GET",route="/orders/:id"`
      for (
        const line of [
          "# TYPE http_requests_total counter",
          `http_requests_total{${labels},status="200"} 3`,
          `http_requests_total{${labels},status="404"} 1`,
          "# TYPE http_request_duration_seconds histogram",
          `http_request_duration_seconds_bucket{le="0.001",${labels}} 2`,
          `http_request_duration_seconds_bucket{le="0.0025",${labels}} 2`,
          `http_request_duration_seconds_bucket{le="0.005",${labels}} 3`,
          `http_request_duration_seconds_bucket{le="2.5",${labels}} 3`,
          `http_request_duration_seconds_bucket{le="+Inf",${labels}} 4`,
          `http_request_duration_seconds_sum{${labels}} ${0.0004 + 0.001 + 0.003 + 3}`,
          `http_request_duration_seconds_count{${labels}} 4`,
          "# TYPE process_cpu_user_seconds_total counter"
        ]
      ) assert.include(lines, line)
    }))

  it.effect("escape label values as the exposition format says", () =>
    Effect.promise(async () => {
      const metrics = Metrics.make()
      metrics.record("GET", "a\"b\\c\nd", 200, 0.1)
      assert.include(await metrics.text(), `http_requests_total{method="GET",route="a\\"b\\\\c\\nd",status="200"} 1`)
    }))
})

describe("access lines", () => {
  it.effect("are one JSON object a line, whatever the path holds", () =>
    Effect.promise(async () => {
      const written: Array<string> = []
      const write = process.stdout.write
      process.stdout.write = ((chunk: string) => (written.push(chunk), true)) as typeof process.stdout.write
      try {
        const path = "/orders/a\"b\\c\u0001é"
        recordRequest({ accessLog: true, metrics: undefined }, {
          method: "GET",
          url: `${path}?x=1`,
          requestId: "trace-1",
          started: performance.now()
        }, 404)
        await new Promise((resolve) => setImmediate(resolve))
        const line = JSON.parse(written.join(""))
        assert.deepStrictEqual(
          { ...line, timestamp: typeof line.timestamp, duration_ms: typeof line.duration_ms },
          {
            timestamp: "string",
            logLevel: "INFO",
            message: "request",
            request_id: "trace-1",
            method: "GET",
            path,
            route: "/orders/:id",
            status: 404,
            duration_ms: "number"
          }
        )
        assert.isFalse(Number.isNaN(Date.parse(line.timestamp)))
      } finally {
        process.stdout.write = write
      }
    }))
})
