/**
 * The checks every JSON request body passes before its endpoint's schema sees it: a nesting depth
 * no API body needs (a deeper one overflows the stack when the schema's error is formatted), and no
 * U+0000 in any text (PostgreSQL cannot keep it, not even as a query parameter), and with strict
 * handling no field the endpoint does not know (`StrictBody`). A body that is not JSON is refused.
 * They run when the endpoint reads its body, after the token and `site` checks, so the documented
 * order of checks holds; a failure is a 400 naming the problem.
 */
import { Headers, HttpRouter, HttpServerError, type HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { bodyProblem } from "../api/BodyProblem.js"
import * as StrictBody from "./StrictBody.js"

/** The answer to a body that is not JSON at all. */
export const invalidJson = "Request body is not valid JSON"

/** The failure of a refused body; `description` is the message the client gets. */
export const isRefusedBody = (error: HttpServerError.RequestError) => error.cause === refused

const refused = Symbol.for("@wms/http/JsonBody/refused")

const refuse = (request: HttpServerRequest.HttpServerRequest, message: string) =>
  Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", cause: refused, description: message }))

/**
 * Whether a body of `contentType` is JSON: no content type, or the media type `application/json`
 * with any parameters, in any case (`Application/JSON; charset=utf-8`). The media type is parsed,
 * not searched: `application/json-seq` or `text/plain; note=application/json` is not JSON. Any
 * other body is refused (`checked`), never read as a form.
 */
export const isJson = (contentType: string | undefined): boolean => {
  if (contentType === undefined || contentType === "") return true
  const parameters = contentType.indexOf(";")
  const mediaType = parameters < 0 ? contentType : contentType.slice(0, parameters)
  return mediaType.trim().toLowerCase() === "application/json"
}

// The platform reads a form body as the payload and hands a multipart one to its parser, which
// throws (a 500) on a body it cannot parse; the API takes JSON only. A body of another type is read
// as text, as the platform reads `text/plain`, and every payload schema refuses a text: 400
// `Request body must be a JSON object`, after the token and `site` checks like any body check.
const asText = (request: HttpServerRequest.HttpServerRequest) =>
  isJson(request.headers["content-type"])
    ? request
    : request.modify({ headers: Headers.set(request.headers, "content-type", "text/plain") })

/** Strict handling asked for (`Prefer: handling=strict`): told when it is applied to the body. */
export interface Strict {
  readonly applied: () => void
}

/**
 * The request with its body checked: only JSON is read, and its `json` passes `bodyProblem`, then,
 * with `strict`, `StrictBody`'s check of the endpoint the router matched. The platform caches the
 * body's text on the request, so `text` is passed through to the same cache.
 */
export const checked = (
  incoming: HttpServerRequest.HttpServerRequest,
  strict?: Strict
): HttpServerRequest.HttpServerRequest => {
  const request = asText(incoming)
  const strictly = strict === undefined
    ? Effect.succeed
    : (body: unknown) =>
      Effect.flatMap(Effect.serviceOption(HttpRouter.RouteContext), (context) => {
        strict.applied()
        const unknownField = Option.isSome(context)
          ? StrictBody.unknownFieldFor(context.value.route.method, context.value.route.path)?.(body)
          : undefined
        return unknownField === undefined
          ? Effect.succeed(body)
          : refuse(request, StrictBody.unknownFieldMessage(unknownField))
      })
  return Object.create(request, {
    text: { get: () => request.text },
    json: {
      get: () =>
        Effect.flatMap(request.json, (body) => {
          const problem = bodyProblem(body)
          return problem === undefined ? strictly(body) : refuse(request, problem)
        })
    }
  })
}
