/**
 * The three hottest routes, `GET /orders/:id`, `GET /orders` and `POST /orders`, answered straight
 * on node:http before the platform's `HttpApi` sees the request. On effect 3 the `HttpApi` stack
 * (its request wrapper, router, middleware chain and response conversion) costs 100 to 160 µs of
 * CPU a request, more than the engine's own work; this front costs a few µs and runs the same
 * pieces in the same order: the declared endpoint's schemas, the security check (`actorOf`), the
 * handlers (`hotOrderHandlers`), the error answers (`answerTo`), the access line and metrics
 * (`recordRequest`). A request it does not recognize exactly goes to the `HttpApi` untouched:
 * another route or method, a path segment the router would decode or refuse (`%`, `;`, `#`,
 * over 100 characters), a query with escapes, a body that is not JSON.
 */
import { type HttpApiEndpoint, HttpApiError } from "@effect/platform"
import { type Actor, Administration, InvalidInput, Orders } from "@wms/core"
import { Effect, Exit, Option, ParseResult, Redacted, Runtime, Schema } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { type AccessLogOptions, recordRequest, requestIdOf } from "./AccessLog.js"
import { WarehouseApi } from "./Api.js"
import { PayloadTooLarge } from "./api/Errors.js"
import { SentAsBuilt } from "./api/OrdersApi.js"
import { maxBodyBytes } from "./BodyLimit.js"
import { answerTo, type FailureAnswer, tooLargeMessage, unexpectedAnswer } from "./ErrorResponses.js"
import { hotOrderHandlers } from "./handlers/OrdersHandlers.js"
import { actorOf } from "./handlers/SecurityLive.js"
import { bodyProblem, invalidJson } from "./JsonBody.js"
import { Tokens } from "./Tokens.js"

/** Answers the request and returns true, or returns false and leaves it to the `HttpApi`. */
export type Front = (request: IncomingMessage, response: ServerResponse) => boolean

/** What a route's handler is given, decoded by its endpoint's schemas. */
interface Input {
  path?: unknown
  payload?: unknown
  urlParams?: unknown
}

/** A route's handler, given the caller and what the endpoint's schemas decoded. */

type Handle = (actor: Actor, input: any) => Effect.Effect<unknown, unknown>

// A path segment the router takes as it is: nothing it would decode (`%`) or cut at (`;`, `#`),
// within its 100-character limit on parameters.
const plainSegment = /^[^/%;#?]{1,100}$/
// A query whose keys and values need no decoding.
const plainQuery = /^[^%+#]*$/

/** The query as the router parses it (a repeated key becomes an array), for a query without escapes. */
const parseQuery = (query: string): Record<string, string | Array<string>> => {
  const params: Record<string, string | Array<string>> = Object.create(null)
  for (const pair of query.split("&")) {
    const equals = pair.indexOf("=")
    const key = equals < 0 ? pair : pair.slice(0, equals)
    if (equals < 0 && key === "") continue
    const value = equals < 0 ? "" : pair.slice(equals + 1)
    const previous = params[key]
    params[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value]
  }
  return params
}

/** A decoder of an endpoint's schema; those of the hot routes need no service. */
type Decode = (input: unknown) => Effect.Effect<unknown, ParseResult.ParseError>

const decoder = (schema: Option.Option<Schema.Schema.Any>): Decode | undefined =>
  Option.isSome(schema) ? Schema.decodeUnknown(schema.value) as Decode : undefined

const payloadTooLarge = new PayloadTooLarge({ message: tooLargeMessage })

/** The body as JSON, read as the platform reads it (UTF-8 text, at most 1 MiB), then checked by `JsonBody`. */
const readJson = (request: IncomingMessage, response: ServerResponse) =>
  Effect.async<unknown, InvalidInput | PayloadTooLarge>((resume) => {
    let text = ""
    let bytes = 0
    let done = false
    const finish = (result: Effect.Effect<unknown, InvalidInput | PayloadTooLarge>) => {
      if (done) return
      done = true
      resume(result)
    }
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      text += chunk
      bytes += Buffer.byteLength(chunk)
      if (bytes <= maxBodyBytes) return
      // Stop reading and close the connection once answered, as `createNodeServer` does.
      request.removeAllListeners("data")
      request.pause()
      response.shouldKeepAlive = false
      finish(Effect.fail(payloadTooLarge))
    })
    request.once("end", () => {
      let body: unknown
      try {
        // An empty body is `null`, as the platform reads it.
        body = text === "" ? null : JSON.parse(text)
      } catch {
        return finish(Effect.fail(new InvalidInput({ message: invalidJson })))
      }
      const problem = bodyProblem(body)
      finish(problem === undefined ? Effect.succeed(body) : Effect.fail(new InvalidInput({ message: problem })))
    })
    request.once("error", () => finish(Effect.fail(new InvalidInput({ message: invalidJson }))))
  })

const send = (
  response: ServerResponse,
  requestId: string,
  answer: FailureAnswer | { status: number; body?: unknown }
) => {
  if (answer.body === undefined) {
    response.writeHead(answer.status, { "x-request-id": requestId })
    response.end()
    return
  }
  const text = JSON.stringify(answer.body)
  response.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...("headers" in answer ? answer.headers : undefined),
    "x-request-id": requestId
  })
  response.end(text)
}

/**
 * The front, on the services of the running server. Needs the same `Tokens`, `Administration`
 * and `Orders` as the `HttpApi` it stands before.
 */
export const make = (options: AccessLogOptions) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const actor = actorOf(yield* Tokens, yield* Administration)
    const handlers = hotOrderHandlers(yield* Orders)
    const endpoints = WarehouseApi.groups.orders.endpoints as unknown as Record<
      string,
      HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    >

    /** The steps of the platform's handler of `endpoint`: security, path, payload, query, handler, encoding. */
    const compile = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, handle: Handle) => {
      const decodePath = decoder(endpoint.pathSchema)
      const decodePayload = decoder(endpoint.payloadSchema)
      // The platform wraps a lone value in an array where the schema wants more than a string; the
      // query parameters of these routes are all strings, so the query is decoded as parsed.
      const decodeUrlParams = decoder(endpoint.urlParamsSchema)
      const encodeSuccess = endpoint.successSchema.ast.annotations[SentAsBuilt] === true
        ? Effect.succeed
        : Schema.encodeUnknown(endpoint.successSchema)
      // Chained rather than a generator: on effect 3 each step of a generator costs about 1 µs.
      return (
        request: IncomingMessage,
        response: ServerResponse,
        path: Record<string, string>,
        query: Record<string, string | Array<string>>
      ) =>
        actor(Redacted.make((request.headers.authorization ?? "").slice(7)), request.headers.site as string | undefined)
          .pipe(
            Effect.flatMap((caller) => {
              const input: Input = {}
              let steps: Effect.Effect<Input, unknown> = Effect.succeed(input)
              if (decodePath !== undefined) {
                steps = Effect.flatMap(steps, () =>
                  Effect.map(decodePath(path), (decoded) => (input.path = decoded, input)))
              }
              if (decodePayload !== undefined) {
                steps = Effect.flatMap(steps, () =>
                  Effect.map(
                    Effect.flatMap(readJson(request, response), decodePayload),
                    (decoded) => (input.payload = decoded, input)
                  ))
              }
              if (decodeUrlParams !== undefined) {
                steps = Effect.flatMap(steps, () =>
                  Effect.map(decodeUrlParams(query), (decoded) => (input.urlParams = decoded, input)))
              }
              return Effect.flatMap(steps, (decoded) =>
                handle(caller, decoded))
            }),
            Effect.flatMap(encodeSuccess),
            Effect.catchIf(ParseResult.isParseError, HttpApiError.HttpApiDecodeError.refailParseError)
          ) as Effect.Effect<unknown, unknown>
    }
    const run = {
      listOrders: compile(endpoints.listOrders, handlers.listOrders),
      createOrder: compile(endpoints.createOrder, handlers.createOrder),
      getOrder: compile(endpoints.getOrder, handlers.getOrder)
    }
    const runCallback = Runtime.runCallback(runtime)

    const answer = (
      request: IncomingMessage,
      response: ServerResponse,
      program: Effect.Effect<unknown, unknown>
    ) => {
      const started = performance.now()
      const requestId = requestIdOf(request.headers["x-request-id"] as string | undefined)
      const { method, url } = request as { method: string; url: string }
      const finish = (exit: Exit.Exit<unknown, unknown>) => {
        if (Exit.isSuccess(exit)) {
          send(response, requestId, { status: exit.value === undefined ? 204 : 200, body: exit.value })
          return recordRequest(options, { method, url, requestId, started }, response.statusCode)
        }
        const failure = answerTo(exit.cause, method, url)
        if (failure === "interrupted") {
          return response.destroy()
        }
        // The one log line of these routes, so the only one that needs the request id.
        if (failure === "unexpected") {
          runCallback(
            Effect.logError("Unexpected failure", exit.cause).pipe(Effect.annotateLogs("request_id", requestId))
          )
        }
        send(response, requestId, failure === "unexpected" ? unexpectedAnswer : failure)
        recordRequest(options, { method, url, requestId, started }, response.statusCode)
      }
      runCallback(program, { onExit: finish })
      return true
    }

    const front: Front = (request, response) => {
      const url = request.url!
      const queryAt = url.indexOf("?")
      const path = queryAt < 0 ? url : url.slice(0, queryAt)
      if (path === "/orders") {
        if (request.method === "GET") {
          const query = queryAt < 0 ? "" : url.slice(queryAt + 1)
          if (!plainQuery.test(query)) {
            return false
          }
          return answer(request, response, run.listOrders(request, response, {}, parseQuery(query)))
        }
        // A keyed write is the `HttpApi`'s: its answer is kept with the write (`Idempotency`).
        if (request.method !== "POST" || request.headers["idempotency-key"] !== undefined) {
          return false
        }
        const contentType = request.headers["content-type"]
        if (contentType && !contentType.toLowerCase().includes("application/json")) {
          return false
        }
        if (Number(request.headers["content-length"] ?? 0) > maxBodyBytes) {
          return answer(request, response, Effect.fail(payloadTooLarge))
        }
        return answer(request, response, run.createOrder(request, response, {}, {}))
      }
      if (request.method === "GET" && path.startsWith("/orders/")) {
        const id = path.slice(8)
        if (!plainSegment.test(id)) {
          return false
        }
        return answer(request, response, run.getOrder(request, response, { id }, {}))
      }
      return false
    }
    return front
  })

/**
 * Puts `front` before the server's request listeners (the platform's): Node raises every request
 * as a `request` event, and one the front answers is not raised further. `front` is read per
 * request, so it can be set once the services exist.
 */
export const install = (server: Server, front: () => Front | undefined): Server => {
  const emit = server.emit
  server.emit = function(this: Server, event: string | symbol, ...args: Array<unknown>) {
    const current = event === "request" ? front() : undefined
    if (current !== undefined && current(args[0] as IncomingMessage, args[1] as ServerResponse)) return true
    return emit.apply(this, [event, ...args] as Parameters<Server["emit"]>)
  } as Server["emit"]
  return server
}
