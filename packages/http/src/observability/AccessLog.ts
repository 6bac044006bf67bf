/**
 * Every request gets a request id (the client's `x-request-id` when it is a plain token of at
 * most 128 characters, else a new UUID), sent back as `x-request-id` and attached to every log
 * line written while the request runs. Once answered, the request is counted in the metrics and,
 * unless switched off, written as one JSON access line to stdout. The line is written directly,
 * not through Effect's logger, and the lines of one turn of the event loop together: it is the
 * one log line of every request, so it must be cheap.
 */
import { HttpApp, HttpMiddleware, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Exit } from "effect"
import { randomUUID } from "node:crypto"
import type { Metrics } from "./Metrics.js"
import { routeOf } from "./RouteTemplates.js"

const plainId = /^[A-Za-z0-9._:-]{1,128}$/

export interface AccessLogOptions {
  /** Write the access lines (`WMS_ACCESS_LOG`, default true). */
  readonly accessLog: boolean
  readonly metrics: Metrics | undefined
}

// The lines of one turn of the event loop go out in one write: under load, a write (a system call
// on a pipe or a file) per request costs more than the request's own work. A line waits at most
// for the end of its turn; lines still waiting when the process exits are written then.
let waiting = ""
const flush = () => {
  const lines = waiting
  waiting = ""
  if (lines !== "") process.stdout.write(lines)
}
let flushesOnExit = false
const writeLine = (line: string) => {
  if (!flushesOnExit) {
    process.once("exit", flush)
    flushesOnExit = true
  }
  if (waiting === "") setImmediate(flush)
  waiting += line
  if (waiting.length >= 65_536) flush()
}

/** The client's `x-request-id` when it is a plain token of at most 128 characters, else a new UUID. */
export const requestIdOf = (incoming: string | undefined): string =>
  incoming !== undefined && plainId.test(incoming) ? incoming : randomUUID()

/**
 * Counts an answered request in the metrics and writes its access line. `started` is its
 * `performance.now()` on arrival. Shared with the node:http front of the hot routes (`HotRoutes`).
 */
export const recordRequest = (
  options: AccessLogOptions,
  request: { readonly method: string; readonly url: string; readonly requestId: string; readonly started: number },
  status: number
): void => {
  const seconds = (performance.now() - request.started) / 1000
  const path = request.url.split("?", 1)[0]
  const route = routeOf(request.method, path)
  options.metrics?.record(request.method, route, status, seconds)
  if (!options.accessLog) return
  // Written by hand, the fields in a fixed order: the request id (a plain token or a UUID) and the
  // route (a template) need no escaping; the method and path are quoted as JSON.
  writeLine(
    `{"timestamp":"${
      new Date().toISOString()
    }","logLevel":"INFO","message":"request","request_id":"${request.requestId}",` +
      `"method":${JSON.stringify(request.method)},"path":${JSON.stringify(path)},"route":"${route}",` +
      `"status":${status},"duration_ms":${Math.round(seconds * 1e5) / 100}}\n`
  )
}

export const middleware = (options: AccessLogOptions) =>
  HttpMiddleware.make((app) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = performance.now()
      const requestId = requestIdOf(request.headers["x-request-id"])
      // The server writes the answer before a server-level middleware sees it: the header goes
      // in through a handler that runs just before the writing.
      yield* HttpApp.appendPreResponseHandler((_, response) =>
        Effect.succeed(HttpServerResponse.setHeader(response, "x-request-id", requestId))
      )
      return yield* app.pipe(
        Effect.annotateLogs("request_id", requestId),
        Effect.onExit((exit) =>
          Effect.sync(() =>
            recordRequest(
              options,
              { method: request.method, url: request.url, requestId, started },
              Exit.isSuccess(exit) ? exit.value.status : 500
            )
          )
        )
      )
    })
  )
