/**
 * Strict handling of request bodies (`Prefer: handling=strict`, RFC 7240): a field that neither
 * the endpoint's body nor the record it writes (`ReadOnlyFields`) has, at any depth, is refused
 * with 400 `Unknown field <path>`. Without the preference such a field is ignored. The check runs
 * on the parsed JSON, after `JsonBody`'s and before the endpoint's schema, so a misspelt field is
 * named as unknown rather than reported missing under its right name.
 */
import { HttpApi } from "@effect/platform"
import { Context, Option, type SchemaAST as AST } from "effect"
import { WarehouseApi } from "../Api.js"
import { ReadOnlyFields } from "../api/UnknownFields.js"

/** Whether a `Prefer` header asks for strict handling: its first `handling` preference is `strict`. */
export const prefersStrict = (prefer: string | undefined): boolean => {
  if (prefer === undefined) return false
  for (const preference of prefer.split(",")) {
    const token = preference.split(";", 1)[0]
    const equals = token.indexOf("=")
    if ((equals < 0 ? token : token.slice(0, equals)).trim().toLowerCase() !== "handling") continue
    const value = equals < 0 ? "" : token.slice(equals + 1).trim()
    return value.replace(/^"(.*)"$/, "$1").toLowerCase() === "strict"
  }
  return false
}

/** The message of a field the endpoint does not know. */
export const unknownFieldMessage = (path: string) => `Unknown field ${path}`

/** The schemas that describe one place of a body, on the side the client sends. */
type Place = ReadonlyArray<AST.AST>

const sent = (ast: AST.AST): Array<AST.AST> => {
  switch (ast._tag) {
    case "Transformation":
      // A body decoded from anything (one line or an array of lines) is described by what it becomes.
      return sent(ast.from._tag === "UnknownKeyword" || ast.from._tag === "AnyKeyword" ? ast.to : ast.from)
    case "Refinement":
      return sent(ast.from)
    case "Suspend":
      return sent(ast.f())
    case "Union":
      return ast.types.flatMap(sent)
    default:
      return [ast]
  }
}

const open = new Set(["UnknownKeyword", "AnyKeyword", "ObjectKeyword", "Declaration"])
const isOpen = (ast: AST.AST) => open.has(ast._tag)

/** The fields known at `place`: `open` when any field goes, `undefined` when no object is expected there. */
const fieldsAt = (place: Place): Map<string, Array<AST.AST>> | "open" | undefined => {
  let fields: Map<string, Array<AST.AST>> | undefined
  for (const ast of place.flatMap(sent)) {
    if (isOpen(ast)) return "open"
    if (ast._tag !== "TypeLiteral") continue
    if (ast.indexSignatures.length > 0) return "open"
    fields ??= new Map()
    for (const property of ast.propertySignatures) {
      if (typeof property.name !== "string") continue
      fields.set(property.name, [...(fields.get(property.name) ?? []), property.type])
    }
  }
  return fields
}

/** The schemas of the items at `place`: `open` when anything goes, `undefined` when no array is expected there. */
const itemsAt = (place: Place): Array<AST.AST> | "open" | undefined => {
  let items: Array<AST.AST> | undefined
  for (const ast of place.flatMap(sent)) {
    if (isOpen(ast)) return "open"
    if (ast._tag !== "TupleType") continue
    items = [...(items ?? []), ...ast.elements.map((element) => element.type), ...ast.rest.map((rest) => rest.type)]
  }
  return items
}

const unknownIn = (value: unknown, place: Place, path: ReadonlyArray<string | number>): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  if (Array.isArray(value)) {
    const items = itemsAt(place)
    if (items === undefined || items === "open") return undefined
    for (let i = 0; i < value.length; i++) {
      const found = unknownIn(value[i], items, [...path, i])
      if (found !== undefined) return found
    }
    return undefined
  }
  // A value of another type than the schema's is left to the schema to name.
  const fields = fieldsAt(place)
  if (fields === undefined || fields === "open") return undefined
  for (const [key, field] of Object.entries(value)) {
    const known = fields.get(key)
    if (known === undefined) return [...path, key].join(".")
    const found = unknownIn(field, known, [...path, key])
    if (found !== undefined) return found
  }
  return undefined
}

/** The first field of a body that `endpoint` does not know, as its path (`lines.0.colour`), or `undefined`. */
export type UnknownField = (body: unknown) => string | undefined

/** The check of `endpoint`'s body: its payload's fields and those of its record (`ReadOnlyFields`) are known. */
export const unknownFieldOf = (endpoint: {
  readonly payloadSchema: Option.Option<{ readonly ast: AST.AST }>
  readonly annotations: Context.Context<never>
}): UnknownField => {
  const record = Context.getOption(endpoint.annotations, ReadOnlyFields)
  const place = [...Option.toArray(endpoint.payloadSchema), ...Option.toArray(record)].map((schema) => schema.ast)
  return (body) => unknownIn(body, place, [])
}

const byRoute = new Map<string, UnknownField>()
HttpApi.reflect(WarehouseApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    if (Option.isSome(endpoint.payloadSchema)) {
      byRoute.set(`${endpoint.method} ${endpoint.path}`, unknownFieldOf(endpoint))
    }
  }
})

/** The check of the endpoint declared as `method` `path` (a template such as `/orders/:id`), if it has a body. */
export const unknownFieldFor = (method: string, path: string): UnknownField | undefined =>
  byRoute.get(`${method} ${path}`)
