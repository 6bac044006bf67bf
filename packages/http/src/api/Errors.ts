/**
 * The error responses of the API. On the wire every error is `{message}`; the status tells them
 * apart. On the type side each is the core's tagged error, so a handler fails with domain errors
 * and a typed client gets them back.
 */
import { HttpApiSchema } from "@effect/platform"
import { Conflict, Forbidden, InvalidInput, NotFound, Unauthenticated } from "@wms/core"
import { Schema } from "effect"

const Message = Schema.Struct({ message: Schema.String })

const onTheWire = <A extends { readonly message: string }>(
  error: Schema.Schema<A, any> & (new(props: { readonly message: string }) => A),
  status: number,
  description: string
) =>
  Schema.transform(Message, Schema.typeSchema(error), {
    strict: true,
    decode: ({ message }) => new error({ message }),
    encode: ({ message }) => ({ message })
  }).annotations(HttpApiSchema.annotations({ status, description }))

export const BadRequest = onTheWire(InvalidInput, 400, "The request is malformed; the message names the field")
export const Unauthorized = onTheWire(Unauthenticated, 401, "The token is missing, expired or not valid")
export const ForbiddenError = onTheWire(Forbidden, 403, "The site header is missing or invalid, or admin rights are required")
export const NotFoundError = onTheWire(NotFound, 404, "The record does not exist in the request's scope")
export const ConflictError = onTheWire(Conflict, 409, "The record exists, or its state forbids the change")

/** A request body over the size limit (1 MiB). */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  message: Schema.String
}) {}

/** An unexpected failure; its cause is logged, never sent. */
export class InternalServerError extends Schema.TaggedError<InternalServerError>()("InternalServerError", {
  message: Schema.String
}) {}

export const PayloadTooLargeError = onTheWire(PayloadTooLarge, 413, "The request body is larger than 1 MiB")
export const InternalError = onTheWire(InternalServerError, 500, "An unexpected failure")

/** 429: too many failed logins; `retryAfterSeconds` goes out as `Retry-After`. */
export class TooManyLogins extends Schema.TaggedError<TooManyLogins>()("TooManyLogins", {
  message: Schema.String,
  retryAfterSeconds: Schema.Number
}) {}

/** 503 `{status, message}`: the database does not answer, or the server is stopping. */
export class Unavailable extends Schema.TaggedError<Unavailable>()(
  "Unavailable",
  { status: Schema.Literal("unavailable", "stopping"), message: Schema.String },
  HttpApiSchema.annotations({ status: 503, description: "The database does not answer, or the server is stopping" })
) {}
