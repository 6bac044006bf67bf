/**
 * The three hottest routes, `GET /orders/:id`, `GET /orders` and `POST /orders`, answered straight
 * on node:http before the platform's `HttpApi` sees the request. On effect 3 the `HttpApi` stack
 * (its request wrapper, router, middleware chain and response conversion) costs more CPU a request
 * than the engine's own work (docs/PERFORMANCE.md, HTTP); this front costs little and runs the same
 * pieces in the same order: the declared endpoint's route, schemas, security and success status,
 * the security check (`actorOf`), the body's checks (`JsonBody`, `StrictBody`), the orders table's
 * entries (a list read with a `limit` counted for its `X-Total-Count`, `TotalCount`), the error
 * answers (`answerTo`), the access line and metrics (`recordRequest`). A request it does not
 * recognize exactly goes to the `HttpApi` untouched: another route or method, a path segment the
 * router would decode or refuse (`%`, `;`, `#`, over 100 characters), a query with escapes, a body
 * that is not JSON.
 */
import { HttpApi, type HttpApiEndpoint, HttpApiError, type HttpMethod } from "@effect/platform"
import { type Actor, Administration, InvalidInput, withListTotal } from "@wms/core"
import { Context, Effect, Either, Exit, Option, ParseResult, Runtime, Schema } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { type EndpointName, WarehouseApi } from "../Api.js"
import { bodyProblem } from "../api/BodyProblem.js"
import { CreatedAt, type Location } from "../api/CreatedAt.js"
import { PayloadTooLarge } from "../api/Errors.js"
import { Authorization } from "../api/Security.js"
import { counts, takesWindow, totalCountHeader } from "../api/TotalCount.js"
import { strictApplied } from "../api/UnknownFields.js"
import { actorOf } from "../auth/SecurityLive.js"
import { Tokens } from "../auth/Tokens.js"
import { SentAsBuilt } from "../features/orders/OrdersApi.js"
import { OrdersTable } from "../features/orders/OrdersHandlers.js"
import { maxBodyBytes } from "../middleware/BodyLimit.js"
import { answerTo, type FailureAnswer, tooLargeMessage, unexpectedAnswer } from "../middleware/ErrorResponses.js"
import { invalidJson, isJson } from "../middleware/JsonBody.js"
import { prefersStrict, type UnknownField, unknownFieldMessage, unknownFieldOf } from "../middleware/StrictBody.js"
import { type AccessLogOptions, recordRequest, requestIdOf } from "../observability/AccessLog.js"

/** Answers the request and returns true, or returns false and leaves it to the `HttpApi`. */
export type Front = (request: IncomingMessage, response: ServerResponse) => boolean

/** What a route's handler is given, decoded by its endpoint's schemas. */
interface Input {
  path?: unknown
  payload?: unknown
  urlParams?: unknown
}

/** The endpoints of the orders group the front answers; `OrdersApi` declares their routes, security and statuses. */
const hot: ReadonlySet<string> = new Set<EndpointName<"orders">>(["listOrders", "createOrder", "getOrder"])

/** A table entry as the front calls it: with what the endpoint's own schemas decoded. */
type Entry = (actor: Actor, input: never) => Effect.Effect<unknown, unknown>

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

/**
 * A decoder of an endpoint's schema. Those of the hot routes need no service and run no effect, so
 * they decode synchronously, between the fiber's steps, where `decodeUnknown` runs the same parse
 * in three steps of its own.
 */
type Decode = (input: unknown) => Either.Either<unknown, ParseResult.ParseError>

const decoder = (schema: Option.Option<Schema.Schema<never, unknown>>): Decode | undefined =>
  Option.isSome(schema) ? Schema.decodeUnknownEither(schema.value) : undefined

/** An endpoint as the API declares it. */
type Declared = HttpApiEndpoint.HttpApiEndpoint<string, HttpMethod.HttpMethod>

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

/** Strict handling of `body` (`StrictBody`): the answer says it was applied; the refusal of an unknown field, if any. */
const strictly = (unknownField: UnknownField, response: ServerResponse, body: unknown) => {
  response.setHeader("preference-applied", strictApplied)
  const field = unknownField(body)
  return field === undefined ? undefined : new InvalidInput({ message: unknownFieldMessage(field) })
}

const send = (
  response: ServerResponse,
  requestId: string,
  answer: FailureAnswer | {
    status: number
    body?: unknown
    location?: string | undefined
    headers?: Record<string, string> | undefined
  }
) => {
  if (answer.body === undefined) {
    const location = "location" in answer && answer.location !== undefined ? { location: answer.location } : undefined
    response.writeHead(answer.status, { ...location, "x-request-id": requestId })
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

/** A route's run: what its schemas decoded, its encoded result, and a counted list's total (`TotalCount`). */
interface Ran {
  readonly input: Input
  readonly result: unknown
  readonly total: number | undefined
}

/** What the front does not need to parse. */
const noParams: Record<string, string> = {}

/** How an endpoint answers: its declared success status, with a body or without, and a create's `Location`. */
interface Success {
  readonly status: number
  readonly hasBody: boolean
  readonly createdAt: Option.Option<Location>
}

/**
 * The front, on the services of the running server. Needs the same `Tokens`, `Administration`
 * and `Orders` as the `HttpApi` it stands before.
 */
export const make = (options: AccessLogOptions) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const actor = actorOf(yield* Tokens, yield* Administration)
    const entries: Record<string, Entry> = yield* OrdersTable

    /** The steps of the platform's handler of `endpoint`: security, path, payload, query, handler, encoding. */
    const compile = (endpoint: Declared, entry: Entry) => {
      const decodePath = decoder(endpoint.pathSchema)
      const decodePayload = decoder(endpoint.payloadSchema)
      const unknownField = unknownFieldOf(endpoint)
      // The platform wraps a lone value in an array where the schema wants more than a string; the
      // query parameters of these routes are all strings, so the query is decoded as parsed.
      const decodeUrlParams = decoder(endpoint.urlParamsSchema)
      const encodeSuccess = endpoint.successSchema.ast.annotations[SentAsBuilt] === true
        ? Effect.succeed
        : Schema.encodeUnknownEither(endpoint.successSchema)
      const windowed = takesWindow(endpoint.urlParamsSchema)
      // What the endpoint's own schemas decoded is what its entry takes. The input is kept for a
      // create's `Location`; a list read with a `limit` is counted.
      const handle = (caller: Actor, input: Input): Effect.Effect<Ran, unknown> =>
        windowed && counts(input.urlParams)
          ? Effect.flatMap(
            withListTotal(entry(caller, input as never)),
            ([result, total]) => Effect.map(encodeSuccess(result), (encoded) => ({ input, result: encoded, total }))
          )
          : Effect.map(
            Effect.flatMap(entry(caller, input as never), encodeSuccess),
            (result) => ({ input, result, total: undefined })
          )
      // The query is decoded after the body, as the platform decodes them.
      const withQuery = (caller: Actor, input: Input, query: Record<string, string | Array<string>>) => {
        if (decodeUrlParams !== undefined) {
          const decoded = decodeUrlParams(query)
          if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
          input.urlParams = decoded.right
        }
        return handle(caller, input)
      }
      // Chained rather than a generator, whose every step costs more on effect 3; the decoding,
      // synchronous, in the steps around it.
      return (
        request: IncomingMessage,
        response: ServerResponse,
        path: Record<string, string>,
        query: Record<string, string | Array<string>>
      ) =>
        actor(request.headers.authorization, request.headers.site as string | undefined)
          .pipe(
            Effect.flatMap((caller) => {
              const input: Input = {}
              if (decodePath !== undefined) {
                const decoded = decodePath(path)
                if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
                input.path = decoded.right
              }
              if (decodePayload === undefined) return withQuery(caller, input, query)
              const strict = prefersStrict(request.headers.prefer as string | undefined)
              return Effect.flatMap(readJson(request, response), (body) => {
                const unknown = strict ? strictly(unknownField, response, body) : undefined
                if (unknown !== undefined) return Effect.fail(unknown)
                const decoded = decodePayload(body)
                if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
                input.payload = decoded.right
                return withQuery(caller, input, query)
              })
            }),
            Effect.catchIf(ParseResult.isParseError, HttpApiError.HttpApiDecodeError.refailParseError)
          ) as Effect.Effect<Ran, unknown>
    }
    const runCallback = Runtime.runCallback(runtime)

    const answer = (
      request: IncomingMessage,
      response: ServerResponse,
      success: Success,
      program: Effect.Effect<Ran, unknown>
    ) => {
      const started = performance.now()
      const requestId = requestIdOf(request.headers["x-request-id"] as string | undefined)
      const { method, url } = request as { method: string; url: string }
      const finish = (exit: Exit.Exit<Ran, unknown>) => {
        if (Exit.isSuccess(exit)) {
          const { input, result, total } = exit.value
          send(response, requestId, {
            status: success.status,
            body: success.hasBody ? result : undefined,
            location: Option.isSome(success.createdAt) ? success.createdAt.value(input as never, result) : undefined,
            headers: total === undefined ? undefined : { [totalCountHeader]: String(total) }
          })
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

    /**
     * A hot endpoint as the front serves it: the checks the platform makes before the handler
     * that the front makes itself (a query without escapes, a JSON body within the limit), then
     * the compiled steps, answered with the declared success.
     */
    const serve = (endpoint: Declared, success: Success) => {
      const run = compile(endpoint, entries[endpoint.name]!)
      const hasQuery = Option.isSome(endpoint.urlParamsSchema)
      const hasBody = Option.isSome(endpoint.payloadSchema)
      return (request: IncomingMessage, response: ServerResponse, params: Record<string, string>) => {
        let query: Record<string, string | Array<string>> = noParams
        if (hasQuery) {
          const url = request.url!
          const queryAt = url.indexOf("?")
          const text = queryAt < 0 ? "" : url.slice(queryAt + 1)
          if (!plainQuery.test(text)) return false
          query = parseQuery(text)
        }
        if (hasBody) {
          // A keyed write is the `HttpApi`'s: its answer is kept with the write (`Idempotency`).
          if (request.headers["idempotency-key"] !== undefined) return false
          if (!isJson(request.headers["content-type"])) return false
          if (Number(request.headers["content-length"] ?? 0) > maxBodyBytes) {
            return answer(request, response, success, Effect.fail(payloadTooLarge))
          }
        }
        return answer(request, response, success, run(request, response, params, query))
      }
    }

    /**
     * The hot endpoints' routes as the router matches them: a method and a path of plain segments,
     * or of plain segments and one parameter, the last (`/orders/:id`), which takes a segment the
     * router would take as it is.
     */
    const routes: Array<{
      readonly method: string
      readonly path: string
      readonly param: string | undefined
      readonly serve: ReturnType<typeof serve>
    }> = []
    HttpApi.reflect(WarehouseApi, {
      predicate: ({ endpoint, group }) => group.identifier === "orders" && hot.has(endpoint.name),
      onGroup: () => {},
      onEndpoint: ({ endpoint, middleware, successes }) => {
        // The front checks the token and the `site` header as `Authorization` does, and no more.
        if (middleware.size !== 1 || !(middleware as ReadonlySet<unknown>).has(Authorization)) {
          throw new Error(`The hot routes' front serves endpoints behind Authorization only, not ${endpoint.name}`)
        }
        const [[status, { ast }]] = successes
        const [path, param, ...rest] = endpoint.path.split("/:")
        if (rest.length > 0 || param?.includes("/")) {
          throw new Error(`The hot routes' front serves paths with no parameter but the last, not ${endpoint.path}`)
        }
        routes.push({
          method: endpoint.method,
          path: param === undefined ? path! : `${path}/`,
          param,
          serve: serve(endpoint, {
            status,
            hasBody: Option.isSome(ast),
            createdAt: Context.getOption(endpoint.annotations, CreatedAt)
          })
        })
      }
    })

    const front: Front = (request, response) => {
      const url = request.url!
      const queryAt = url.indexOf("?")
      const path = queryAt < 0 ? url : url.slice(0, queryAt)
      for (const route of routes) {
        if (request.method !== route.method) continue
        if (route.param === undefined) {
          if (path === route.path) return route.serve(request, response, noParams)
          continue
        }
        if (!path.startsWith(route.path)) continue
        const value = path.slice(route.path.length)
        if (plainSegment.test(value)) return route.serve(request, response, { [route.param]: value })
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
