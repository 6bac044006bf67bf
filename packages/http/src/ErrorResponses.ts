/**
 * Turns every failure of the API into a JSON `{message}` response: the domain's errors with their
 * status, schema failures as 400 naming the field, malformed JSON as 400, an oversized body as
 * 413, an unknown route as 404, an unavailable database as 503 `{status, message}`, and anything
 * unexpected as a logged 500 that leaks nothing.
 */
import {
  HttpApiBuilder,
  HttpApiError,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { TooManyLogins, Unavailable } from "./api/Errors.js"
import { isRefusedBody } from "./JsonBody.js"

const statusOf: Record<string, number> = {
  InvalidInput: 400,
  Unauthenticated: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413
}

/** A JSON `{message}` response. */
export const messageResponse = (status: number, message: string) =>
  HttpServerResponse.unsafeJson({ message }, { status })

type Issue = HttpApiError.HttpApiDecodeError["issues"][number]

const describeIssue = (issue: Issue): string => {
  const field = issue.path.join(".")
  if (field === "") return "Request body must be a JSON object"
  if (issue._tag === "Missing") return `Missing field ${field}`
  return `Invalid field ${field}: ${issue.message}`
}

const isOversized = (error: HttpServerError.RequestError) =>
  error.cause instanceof Error && error.cause.message === "maxBytes exceeded"

const responseFor = (request: HttpServerRequest.HttpServerRequest, cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const failure = Cause.failureOption(cause)
    const error = Option.isSome(failure) ? failure.value : Cause.squash(cause)
    if (error instanceof HttpApiError.HttpApiDecodeError) {
      return messageResponse(400, error.issues.length > 0 ? describeIssue(error.issues[0]) : error.message)
    }
    if (error instanceof HttpServerError.RequestError) {
      if (isOversized(error)) return messageResponse(413, "Request body is larger than 1 MiB")
      return messageResponse(400, isRefusedBody(error) ? error.description! : "Request body is not valid JSON")
    }
    if (error instanceof TooManyLogins) {
      return HttpServerResponse.unsafeJson({ message: error.message }, {
        status: 429,
        headers: { "retry-after": String(error.retryAfterSeconds) }
      })
    }
    if (error instanceof Unavailable) {
      return HttpServerResponse.unsafeJson({ status: error.status, message: error.message }, { status: 503 })
    }
    if (error instanceof HttpServerError.RouteNotFound) {
      return messageResponse(404, `Route ${request.method} ${request.url.split("?")[0]} not found`)
    }
    if (Option.isSome(failure) && typeof error === "object" && error !== null && "_tag" in error) {
      const status = statusOf[String(error._tag)]
      if (status !== undefined && "message" in error) return messageResponse(status, String(error.message))
    }
    if (Cause.isInterruptedOnly(cause)) return yield* Effect.interrupt
    yield* Effect.logError("Unexpected failure", cause)
    return messageResponse(500, "Internal server error")
  })

/** The API-level middleware that answers every failure as `{message}`. */
export const layer = HttpApiBuilder.middleware((app) =>
  Effect.catchAllCause(app, (cause) => Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => responseFor(request, cause)))
)
