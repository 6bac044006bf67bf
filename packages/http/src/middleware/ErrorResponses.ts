/**
 * Turns every failure of the API into a JSON `{message}` response: the domain's errors with their
 * status, schema failures as 400 naming the field, malformed JSON as 400, an oversized body as
 * 413, an unknown route as 404, an unavailable database as 503 `{status, message}`, and anything
 * unexpected as a logged 500 that leaks nothing.
 */
import { HttpApiBuilder, HttpApiError, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { isWarehouseError } from "@wms/core"
import { Cause, Effect, Option } from "effect"
import { PayloadTooLarge, statusOf, TooManyLogins, Unavailable } from "../api/Errors.js"
import { invalidJson, isRefusedBody } from "./JsonBody.js"

type Issue = HttpApiError.HttpApiDecodeError["issues"][number]

const describeIssue = (issue: Issue): string => {
  const field = issue.path.join(".")
  if (field === "") return "Request body must be a JSON object"
  if (issue._tag === "Missing") return `Missing field ${field}`
  return `Invalid field ${field}: ${issue.message}`
}

const isOversized = (error: HttpServerError.RequestError) =>
  error.cause instanceof Error && error.cause.message === "maxBytes exceeded"

/** The answer to a failed request: its status, JSON body and extra headers. */
export interface FailureAnswer {
  readonly status: number
  readonly body: object
  readonly headers?: Record<string, string>
}

const message = (status: number, text: string): FailureAnswer => ({ status, body: { message: text } })

/** The message of a body over the 1 MiB limit, declared or read. */
export const tooLargeMessage = "Request body is larger than 1 MiB"
export const bodyTooLarge = message(413, tooLargeMessage)

/**
 * The answer to a request of `method` on `url` that failed with `cause`: `interrupted` when it was
 * only interrupted, `unexpected` for a failure the API does not describe (a 500, to be logged).
 * Shared by the middleware below and the node:http front of the hot routes (`HotRoutes`).
 */
export const answerTo = (
  cause: Cause.Cause<unknown>,
  method: string,
  url: string
): FailureAnswer | "interrupted" | "unexpected" => {
  const failure = Cause.failureOption(cause)
  const error = Option.isSome(failure) ? failure.value : Cause.squash(cause)
  if (error instanceof HttpApiError.HttpApiDecodeError) {
    return message(400, error.issues.length > 0 ? describeIssue(error.issues[0]) : error.message)
  }
  if (error instanceof HttpServerError.RequestError) {
    if (isOversized(error)) return bodyTooLarge
    return message(400, isRefusedBody(error) ? error.description! : invalidJson)
  }
  if (error instanceof TooManyLogins) {
    return { ...message(429, error.message), headers: { "retry-after": String(error.retryAfterSeconds) } }
  }
  if (error instanceof Unavailable) {
    return { status: 503, body: { status: error.status, message: error.message } }
  }
  if (error instanceof HttpServerError.RouteNotFound) {
    return message(404, `Route ${method} ${url.split("?")[0]} not found`)
  }
  if (Option.isSome(failure)) {
    if (isWarehouseError(error)) return message(statusOf[error.category], error.message)
    if (error instanceof PayloadTooLarge) return message(413, error.message)
  }
  return Cause.isInterruptedOnly(cause) ? "interrupted" : "unexpected"
}

/** The body of every 500: nothing of the failure leaks. */
export const unexpectedAnswer = message(500, "Internal server error")

/** The answer as a response. */
export const responseOf = (answer: FailureAnswer) =>
  HttpServerResponse.unsafeJson(answer.body, { status: answer.status, headers: answer.headers })

/** The response to the request's failure with `cause`; a 500 is logged. Shared with `Idempotency`. */
export const responseFor = (cause: Cause.Cause<unknown>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const answer = answerTo(cause, request.method, request.url)
    if (answer === "interrupted") return Effect.interrupt
    if (answer === "unexpected") {
      return Effect.as(Effect.logError("Unexpected failure", cause), responseOf(unexpectedAnswer))
    }
    return Effect.succeed(responseOf(answer))
  })

/** The API-level middleware that answers every failure as `{message}`. */
export const layer = HttpApiBuilder.middleware((app) => Effect.catchAllCause(app, responseFor))
