/**
 * What an operator reads off the bundled server: JSON log lines, one access line per request with
 * its request id, and Prometheus metrics at /metrics.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import { freshSqliteFile } from "../../../testing/databases.js"
import { startProcess } from "../../../testing/processes.js"

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers })
    return { status: response.status, requestId: response.headers.get("x-request-id"), text: await response.text() }
  })

describe("logs and metrics of the bundled server", () => {
  it.live(
    "every log line is JSON; each request gets an access line and an x-request-id; /metrics counts it",
    () =>
      Effect.gen(function*() {
        const file = yield* freshSqliteFile
        const server = yield* startProcess({ env: { WMS_DATABASE_URL: `sqlite:${file}` } })
        const kept = yield* get(`${server.url}/health`, { "x-request-id": "trace-42" })
        assert.deepStrictEqual([kept.status, kept.requestId], [200, "trace-42"])
        const replaced = yield* get(`${server.url}/orders/SO-1`, { "x-request-id": "not a plain id" })
        assert.strictEqual(replaced.status, 401)
        assert.match(replaced.requestId!, /^[0-9a-f-]{36}$/)

        const metrics = yield* get(`${server.url}/metrics`)
        assert.strictEqual(metrics.status, 200)
        assert.include(metrics.text, `http_requests_total{method="GET",route="/orders/:id",status="401"} 1`)
        assert.include(metrics.text, `http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/health"} `)
        assert.include(metrics.text, `wms_webhook_deliveries{status="pending"} 0`)
        assert.include(metrics.text, "process_resident_memory_bytes")

        yield* Effect.sleep("100 millis")
        const lines = server.output().trim().split("\n").map((line) => JSON.parse(line))
        assert.isTrue(lines.some((line) => line.logLevel === "INFO" && /^Listening on /.test(line.message)))
        const access = lines.filter((line) => line.message === "request")
        assert.deepInclude(
          access.map(({ duration_ms: _, timestamp: __, ...line }) => line),
          {
            logLevel: "INFO",
            message: "request",
            request_id: "trace-42",
            method: "GET",
            path: "/health",
            route: "/health",
            status: 200
          }
        )
        assert.isTrue(access.some((line) => line.request_id === replaced.requestId && line.route === "/orders/:id"))
      }).pipe(Effect.scoped),
    { timeout: 60_000 }
  )

  it.live(
    "with OTEL_EXPORTER_OTLP_ENDPOINT, requests and their SQL statements are exported as OTLP spans",
    () =>
      Effect.gen(function*() {
        const received: Array<{ path: string; body: string }> = []
        const collector = yield* Effect.acquireRelease(
          Effect.async<ReturnType<typeof createServer>>((resume) => {
            const server = createServer((request, response) => {
              let body = ""
              request.setEncoding("utf8").on("data", (chunk) => (body += chunk)).on("end", () => {
                received.push({ path: request.url ?? "", body })
                response.writeHead(200, { "content-type": "application/json" }).end("{}")
              })
            })
            server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
          }),
          (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
        )
        const address = collector.address() as { port: number }
        const file = yield* freshSqliteFile
        const server = yield* startProcess({
          env: {
            WMS_DATABASE_URL: `sqlite:${file}`,
            OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}`,
            OTEL_SERVICE_NAME: "wms-test"
          }
        })
        assert.strictEqual((yield* get(`${server.url}/health`)).status, 200)
        const deadline = Date.now() + 15_000
        while (!received.some((r) => r.body.includes("SELECT 1")) && Date.now() < deadline) {
          yield* Effect.sleep("200 millis")
        }
        const traces = received.filter((r) => r.path === "/v1/traces").map((r) => r.body).join("\n")
        assert.include(traces, `"wms-test"`)
        assert.include(traces, "http.server GET")
        assert.include(traces, "SELECT 1")
      }).pipe(Effect.scoped),
    { timeout: 60_000 }
  )

  it.live(
    "WMS_METRICS_TOKEN: /metrics answers only Authorization: Bearer <that token>, others 401",
    () =>
      Effect.gen(function*() {
        const file = yield* freshSqliteFile
        const token = "scrape-secret"
        const server = yield* startProcess({ env: { WMS_DATABASE_URL: `sqlite:${file}`, WMS_METRICS_TOKEN: token } })
        const metrics = (authorization?: string) =>
          get(`${server.url}/metrics`, authorization === undefined ? {} : { authorization })
        const missing = yield* metrics()
        assert.deepStrictEqual([missing.status, JSON.parse(missing.text)], [401, {
          message: "Missing authorization token"
        }])
        for (const wrong of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `bearer ${token}`, token, "Bearer "]) {
          const refused = yield* metrics(wrong)
          assert.deepStrictEqual(
            [refused.status, JSON.parse(refused.text)],
            [401, { message: "Authorization token not valid" }],
            wrong
          )
        }
        const scraped = yield* metrics(`Bearer ${token}`)
        assert.strictEqual(scraped.status, 200)
        assert.include(scraped.text, `http_requests_total{method="GET",route="/metrics",status="401"} 6`)
        assert.strictEqual((yield* get(`${server.url}/health`)).status, 200)
      }).pipe(Effect.scoped),
    { timeout: 60_000 }
  )

  it.live(
    "WMS_ACCESS_LOG=false and WMS_METRICS=false switch the access lines and /metrics off",
    () =>
      Effect.gen(function*() {
        const file = yield* freshSqliteFile
        const server = yield* startProcess({
          env: { WMS_DATABASE_URL: `sqlite:${file}`, WMS_ACCESS_LOG: "false", WMS_METRICS: "false" }
        })
        assert.strictEqual((yield* get(`${server.url}/metrics`)).status, 404)
        yield* Effect.sleep("100 millis")
        assert.notInclude(server.output(), `"message":"request"`)
      }).pipe(Effect.scoped),
    { timeout: 60_000 }
  )
})
