/**
 * The failures of the warehouse domain and their five categories. A failure a feature reports is
 * its own tagged error carrying its data (`OrderNotFound { orderId }`, in the feature's
 * `Errors.ts`); each belongs to one category, which the HTTP adapter answers with one status. The
 * five classes below are the categories' generic failures: a field that breaks a rule, a missing
 * or ended session, a scope the caller may not use.
 */
import { Schema } from "effect"

/** The category of a failure: the family of the status the API answers it with. */
export type ErrorCategory = "InvalidInput" | "Unauthenticated" | "Forbidden" | "NotFound" | "Conflict"

/**
 * Any failure the domain reports to a caller: a tagged error of one category whose `message` is
 * the documented text.
 */
export interface WarehouseError {
  readonly _tag: string
  readonly category: ErrorCategory
  readonly message: string
}

/** The request is malformed or breaks a rule of the input (HTTP 400). */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  message: Schema.String
}) {
  get category() {
    return "InvalidInput" as const
  }
}

/** The caller is not authenticated (HTTP 401). */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  message: Schema.String
}) {
  get category() {
    return "Unauthenticated" as const
  }
}

/** The caller may not act in this scope or on this resource (HTTP 403). */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {
  get category() {
    return "Forbidden" as const
  }
}

/** The record does not exist in the caller's scope (HTTP 404). */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String
}) {
  get category() {
    return "NotFound" as const
  }
}

/** The record exists already, or its state forbids the change (HTTP 409). */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
}

/** A 400 naming the field at fault, in the same words as a schema failure: `Invalid field <f>: <why>`. */
export const invalidField = (field: string, reason: string) =>
  new InvalidInput({ message: `Invalid field ${field}: ${reason}` })

const categories: ReadonlySet<unknown> = new Set<ErrorCategory>([
  "InvalidInput",
  "Unauthenticated",
  "Forbidden",
  "NotFound",
  "Conflict"
])

/** Whether `u` is a failure of the domain, of any category. */
export const isWarehouseError = (u: unknown): u is WarehouseError =>
  typeof u === "object" && u !== null && "category" in u && categories.has(u.category) && "message" in u &&
  typeof u.message === "string"

const isOf = <C extends ErrorCategory>(category: C) => (u: unknown): u is WarehouseError & { readonly category: C } =>
  isWarehouseError(u) && u.category === category

/** Whether `u` is a 400 of the domain: `Effect.catchIf(isInvalidInput, …)`. */
export const isInvalidInput = isOf("InvalidInput")
/** Whether `u` is a 401 of the domain. */
export const isUnauthenticated = isOf("Unauthenticated")
/** Whether `u` is a 403 of the domain. */
export const isForbidden = isOf("Forbidden")
/** Whether `u` is a 404 of the domain, whichever record is missing (`OrderNotFound`, `WaveNotFound`, …). */
export const isNotFound = isOf("NotFound")
/** Whether `u` is a 409 of the domain, whichever rule refused (`OrderExists`, `WaveStarted`, …). */
export const isConflict = isOf("Conflict")
