/**
 * The request body limit (1 MiB). A declared `content-length` over it is answered 413 before the
 * body is read; a chunked body is cut off by the reader once it passes the limit. Methods whose body
 * the API never reads (`HttpMethod.hasBody`) skip the check.
 */
import { HttpIncomingMessage, HttpMethod, HttpMiddleware, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { messageResponse } from "./ErrorResponses.js"

export const maxBodyBytes = 1024 * 1024

export const bodyLimit = HttpMiddleware.make((app) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!HttpMethod.hasBody(request.method)) return yield* app
    const declared = Number(request.headers["content-length"] ?? 0)
    if (declared > maxBodyBytes) return messageResponse(413, "Request body is larger than 1 MiB")
    return yield* HttpIncomingMessage.withMaxBodySize(app, Option.some(maxBodyBytes))
  })
)
