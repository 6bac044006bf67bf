/**
 * The typed failures of the warehouse domain. Each carries the exact message the API shows; the
 * HTTP adapter maps the tag to a status code.
 */
import { Schema } from "effect"

/** The request is malformed or breaks a rule of the input (HTTP 400). */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  message: Schema.String
}) {}

/** The caller is not authenticated (HTTP 401). */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  message: Schema.String
}) {}

/** The caller may not act in this scope or on this resource (HTTP 403). */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {}

/** The record does not exist in the caller's scope (HTTP 404). */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String
}) {}

/** The record exists already, or its state forbids the change (HTTP 409). */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String
}) {}

/** A 400 naming the field at fault, in the same words as a schema failure: `Invalid field <f>: <why>`. */
export const invalidField = (field: string, reason: string) => new InvalidInput({ message: `Invalid field ${field}: ${reason}` })

/** Any failure the domain reports to a caller. */
export type WarehouseError = InvalidInput | Unauthenticated | Forbidden | NotFound | Conflict
