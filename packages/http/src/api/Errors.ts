/**
 * The error responses of the API. On the wire every error is `{message}` with the documented text,
 * and its status is its category's. On the type side each is the core's tagged error with its data:
 * a handler fails with domain errors, and a typed client gets them back, decoded from the text.
 */
import { HttpApiSchema } from "@effect/platform"
import {
  Conflict,
  type ErrorCategory,
  Forbidden,
  InvalidInput,
  NotFound,
  Unauthenticated,
  type WarehouseError
} from "@wms/core"
import { ParseResult, Schema, type SchemaAST } from "effect"

const Message = Schema.Struct({ message: Schema.String })

/** The status the API answers a failure of each category with. */
export const statusOf: Readonly<Record<ErrorCategory, number>> = {
  InvalidInput: 400,
  Unauthenticated: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409
}

/** A class of the core's errors: its fields, and instances that build their message from them. */
interface Fielded<E extends WarehouseError = WarehouseError> {
  readonly fields: Schema.Struct.Fields
  new(props: any, disableValidation?: boolean): E
}

/** A class of the core's errors as a schema: what an endpoint declares with `onTheWire`. */
export type ErrorClass<E extends WarehouseError> = Schema.Schema<E, any> & Fielded<E>

const marker = "\u0000"

/**
 * The message of `error` as a template: the message of an instance whose every field is its name
 * between markers, cut at the markers, so that the text stays written once, in the core's `get
 * message()`. Even parts are text, odd ones field names.
 */
const templateOf = (error: Fielded) => {
  const names = Object.keys(error.fields).filter((name) => name !== "_tag")
  const sample = new error(Object.fromEntries(names.map((name) => [name, `${marker}${name}${marker}`])), true)
  const parts = sample.message.split(marker)
  const placed = parts.filter((_, i) => i % 2 === 1)
  if (placed.length !== names.length || names.some((name) => !placed.includes(name))) {
    throw new Error(`${sample._tag}: each field must appear once in its message, to be read back from it`)
  }
  return { category: sample.category, parts }
}

/** A parser of the template's texts: its fields decoded by their own schemas, at the positions given. */
const parserOf = (error: Fielded, parts: ReadonlyArray<string>) => {
  const params: Array<Schema.Schema.Any | string> = []
  const positions: Array<readonly [position: number, name: string]> = []
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part !== "") params.push(part)
      return
    }
    positions.push([params.length, part])
    params.push(error.fields[part] as Schema.Schema.Any)
  })
  const parser = Schema.TemplateLiteralParser(...params as [Schema.Schema.Any]) as unknown as Schema.Schema<
    ReadonlyArray<unknown>,
    string
  >
  const parse = ParseResult.decodeUnknown(parser)
  return (text: string, options?: SchemaAST.ParseOptions) =>
    ParseResult.map(
      parse(text, options),
      (decoded) => Object.fromEntries(positions.map(([position, name]) => [name, decoded[position]]))
    )
}

const schemas = new WeakMap<object, Schema.Schema<any, { readonly message: string }>>()

/**
 * `error` on the wire: `{message}` with the status of its category, described in the OpenAPI
 * document by its template (`Order with OrderID <orderId> not found`) unless `description` is
 * given. Decoding reads the fields back out of the text, so that a client tells two errors of one
 * status apart by their text and gets each with its data; a text of another template fails, and
 * the next error of the status is tried. One schema per error, however many endpoints declare it.
 */
export const onTheWire = <E extends WarehouseError>(
  error: ErrorClass<E>,
  description?: string
): Schema.Schema<E, { readonly message: string }> => {
  const known = schemas.get(error)
  if (known !== undefined) return known
  const { category, parts } = templateOf(error)
  // Made at the first decode: only clients read errors back, and a server declares hundreds.
  let parse: ReturnType<typeof parserOf> | undefined
  const schema = Schema.transformOrFail(Message, Schema.typeSchema(error), {
    strict: true,
    decode: ({ message }, options) =>
      ParseResult.map((parse ??= parserOf(error, parts))(message, options), (fields) => new error(fields)),
    encode: ({ message }) => ParseResult.succeed({ message })
  }).annotations(HttpApiSchema.annotations({
    status: statusOf[category],
    description: description ?? parts.map((part, i) => (i % 2 === 1 ? `<${part}>` : part)).join("")
  }))
  schemas.set(error, schema)
  return schema
}

export const BadRequest = onTheWire(InvalidInput, "The request is malformed; the message names the field")
export const Unauthorized = onTheWire(Unauthenticated, "The token is missing, expired or not valid")
export const ForbiddenError = onTheWire(
  Forbidden,
  "The site header is missing or invalid, or admin rights are required"
)
/**
 * @deprecated No endpoint declares the bare category: each declares the errors of its feature
 * (`onTheWire(OrderNotFound)`), which an embedder's own endpoint does too.
 */
export const NotFoundError = onTheWire(NotFound, "The record does not exist in the request's scope")
/** @deprecated As `NotFoundError`: declare the feature's own error, `onTheWire(OrderExists)`. */
export const ConflictError = onTheWire(Conflict, "The record exists, or its state forbids the change")

/** A request body over the size limit (1 MiB). */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  message: Schema.String
}) {}

/** An unexpected failure; its cause is logged, never sent. */
export class InternalServerError extends Schema.TaggedError<InternalServerError>()("InternalServerError", {
  message: Schema.String
}) {}

const plain = <A extends { readonly message: string }>(
  error: Schema.Schema<A, any> & (new(props: { readonly message: string }) => A),
  status: number,
  description: string
) =>
  Schema.transform(Message, Schema.typeSchema(error), {
    strict: true,
    decode: ({ message }) => new error({ message }),
    encode: ({ message }) => ({ message })
  }).annotations(HttpApiSchema.annotations({ status, description }))

export const PayloadTooLargeError = plain(PayloadTooLarge, 413, "The request body is larger than 1 MiB")
export const InternalError = plain(InternalServerError, 500, "An unexpected failure")

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
