/**
 * The request body limit (1 MiB). A declared `content-length` over it is answered 413 before the
 * body is read; a chunked body is cut off by the reader once it passes the limit, and gets its 413
 * on a server from `createNodeServer`. Methods whose body the API never reads
 * (`HttpMethod.hasBody`) skip the check, and so do those that stream their body (`StreamedRoutes`); the
 * others get their JSON body checked (`JsonBody`), strictly when the client prefers it (`StrictBody`),
 * and then `Preference-Applied: handling=strict`.
 */
import {
  HttpApp,
  HttpIncomingMessage,
  HttpMethod,
  HttpMiddleware,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Effect, Option } from "effect"
import { createServer, type Server } from "node:http"
import * as UnknownFields from "../api/UnknownFields.js"
import { bodyTooLarge, responseOf } from "./ErrorResponses.js"
import * as JsonBody from "./JsonBody.js"
import { isStreamedRoute } from "./StreamedRoutes.js"
import * as StrictBody from "./StrictBody.js"

export const maxBodyBytes = 1024 * 1024

export const bodyLimit = HttpMiddleware.make((app) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!HttpMethod.hasBody(request.method) || isStreamedRoute(request.method, request.url)) return yield* app
    const declared = Number(request.headers["content-length"] ?? 0)
    if (declared > maxBodyBytes) return responseOf(bodyTooLarge)
    let strict: JsonBody.Strict | undefined
    if (StrictBody.prefersStrict(request.headers["prefer"])) {
      let applied = false
      strict = { applied: () => (applied = true) }
      // The server writes the answer before a middleware sees it: the header goes in just before.
      yield* HttpApp.appendPreResponseHandler((_, response) =>
        Effect.succeed(
          applied ? HttpServerResponse.setHeader(response, "preference-applied", UnknownFields.strictApplied) : response
        )
      )
    }
    return yield* HttpIncomingMessage.withMaxBodySize(
      Effect.provideService(app, HttpServerRequest.HttpServerRequest, JsonBody.checked(request, strict)),
      Option.some(maxBodyBytes)
    )
  })
)

/** Node's own limit on the time a request takes to arrive, headers and body. */
const defaultRequestTimeoutMillis = 300_000

/**
 * A Node HTTP server for the API. The platform's reader destroys a request whose body passes the
 * limit, and with it the socket, so a chunked body's 413 would never be sent: here a request whose
 * body was not read to its end only stops being read, and its connection closes once the answer is
 * out. A request that takes longer than `requestTimeoutMillis` to arrive (Node's 300 s by default;
 * 0: no limit) gets 408; an import's body arrives only as fast as its rows are written, so a long
 * import needs a longer limit. Headers keep Node's 60 s.
 */
export const createNodeServer = (
  options: { readonly requestTimeoutMillis?: number } = {}
): Server => {
  const requestTimeout = options.requestTimeoutMillis ?? defaultRequestTimeoutMillis
  const server = createServer({
    requestTimeout,
    headersTimeout: requestTimeout === 0 ? 60_000 : Math.min(60_000, requestTimeout)
  })
  server.prependListener("request", (request, response) => {
    if (request.headers["content-length"] !== undefined) return
    const destroy = request.destroy.bind(request)
    request.destroy = (error?: Error) => {
      if (request.complete) return destroy(error)
      response.shouldKeepAlive = false
      return request.pause()
    }
  })
  return server
}
