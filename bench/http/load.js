/**
 * The load generator of the HTTP benchmark, in its own process so it never shares the server's
 * event loop: runs autocannon once with the options it is sent over IPC and answers with the figures.
 * A `POST /orders` run gives every request a new order id (`<prefix>-<n>`).
 */
import autocannon from "autocannon"

const figures = (result) => ({
  requests: result.requests.total,
  rps: Math.round(result.requests.average),
  p50_ms: result.latency.p50,
  p99_ms: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts
})

process.once("message", ({ url, headers, connections, durationS, method, path, body, prefix }) => {
  let n = 0
  const request = body === undefined
    ? { method, path }
    : {
      method,
      path,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...body, order_id: `${prefix}-${++n}` }) })
    }
  const headersOf = body === undefined ? headers : { ...headers, "content-type": "application/json" }
  autocannon(
    { url, connections, duration: durationS, headers: headersOf, requests: [request] },
    (error, result) =>
      process.send(error ? { error: String(error) } : { figures: figures(result) }, () => process.exit(0))
  )
})
