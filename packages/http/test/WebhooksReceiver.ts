/**
 * A webhook receiver for tests: a real Node HTTP server on loopback that records every request
 * and answers as the test scripts it, and the events the tests raise through the API.
 */
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import { insertSku } from "../../../testing/fixtures.js"
import type { Api } from "../../../testing/server.js"

/** How the receiver answers one request: a status, or no answer at all (the sender times out). */
export type Answer = number | "timeout"

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly eventId: number
  /** 1 for the first request carrying this event, 2 for its first retry, … */
  readonly attempt: number
  readonly answer: Answer
}

export interface Receiver {
  readonly url: string
  readonly received: () => ReadonlyArray<Received>
  /** Changes the script for the requests still to come. */
  readonly answerWith: (script: (request: { readonly eventId: number; readonly attempt: number }) => Answer) => void
}

/** A receiver on 127.0.0.1 and a random port, closed (with its hanging requests) with the scope. */
export const receiver = (script: (request: { readonly eventId: number; readonly attempt: number }) => Answer) =>
  Effect.acquireRelease(
    Effect.async<{ readonly receiver: Receiver; readonly close: () => Promise<void> }>((resume) => {
      const received: Array<Received> = []
      const hanging: Array<ServerResponse> = []
      let current = script
      const server = createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const eventId = Number(request.headers["webhook-id"])
          const attempt = received.filter((r) => r.eventId === eventId).length + 1
          const answer = current({ eventId, attempt })
          const body = Buffer.concat(chunks).toString("utf8")
          received.push({ headers: request.headers, body, eventId, attempt, answer })
          if (answer === "timeout") hanging.push(response)
          else response.writeHead(answer, { "content-type": "text/plain" }).end("ok")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({
          receiver: {
            url: `http://127.0.0.1:${port}/hook`,
            received: () => [...received],
            answerWith: (next) => (current = next)
          },
          close: () =>
            new Promise<void>((done) => {
              for (const response of hanging) response.destroy()
              server.closeAllConnections()
              server.close(() => done())
            })
        }))
      })
    }),
    ({ close }) => Effect.promise(close)
  ).pipe(Effect.map(({ receiver }) => receiver))

/** Polls `check` every 50 ms until it holds; dies with `describe()` after `timeoutMillis`. */
export const eventually = (check: () => boolean, describe: () => string, timeoutMillis = 20_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMillis
    while (!check()) {
      if (Date.now() > deadline) return yield* Effect.dieMessage(`timed out: ${describe()}`)
      yield* Effect.sleep("50 millis")
    }
  })

/** The first 2xx answered request per event id, in the order they arrived. */
export const deliveredOrder = (received: ReadonlyArray<Received>) =>
  received.filter((r) => typeof r.answer === "number" && r.answer >= 200 && r.answer < 300).map((r) => r.eventId)
    .filter((id, index, ids) => ids.indexOf(id) === index)

/**
 * The requests that broke the order of one webhook: a request for an event that arrived while an
 * older event of `eventIds` had not been answered with 2xx yet.
 */
export const outOfOrder = (received: ReadonlyArray<Received>, eventIds: ReadonlyArray<number>) => {
  const done = new Set<number>()
  const broken: Array<Received> = []
  for (const request of received) {
    if (eventIds.some((id) => id < request.eventId && !done.has(id))) broken.push(request)
    if (typeof request.answer === "number" && request.answer >= 200 && request.answer < 300) done.add(request.eventId)
  }
  return broken
}

let counter = 0
const unique = (prefix: string) => `${prefix}${process.pid}x${Date.now()}x${counter++}`

/** A new plain site for one test, so its events reach only its own webhooks. */
export const newSite = (api: Api["Type"], token: string) =>
  Effect.gen(function*() {
    const site = unique("wh")
    const created = yield* api.request("POST", "/sites", { token, site: "main", body: { site_id: site, name: site } })
    if (created.status !== 204) return yield* Effect.dieMessage(`POST /sites: ${JSON.stringify(created.body)}`)
    return site
  })

/**
 * Raises `preadvice_received` in a site (or one client of it): a pre-advice of one line of a new
 * SKU, received in full. Returns the pre-advice id. Needs the store's `SqlClient` for the SKU.
 */
export const raiseReceived = (api: Api["Type"], token: string, site: string, client: string | null = null) =>
  Effect.gen(function*() {
    const skuId = unique("SKU")
    const preAdviceId = unique("PA")
    const header = client ?? site
    yield* insertSku({ sku_id: skuId, site_id: site, client_id: client })
    const created = yield* api.request("POST", "/preadvices", {
      token,
      site: header,
      body: { pre_advice_id: preAdviceId, lines: [{ sku_id: skuId, qty: 2 }] }
    })
    if (created.status !== 204) return yield* Effect.dieMessage(`POST /preadvices: ${JSON.stringify(created.body)}`)
    const received = yield* api.request("POST", `/preadvices/${preAdviceId}/receive`, { token, site: header, body: {} })
    if (received.status !== 204) return yield* Effect.dieMessage(`receive: ${JSON.stringify(received.body)}`)
    return preAdviceId
  })
