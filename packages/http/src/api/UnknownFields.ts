/**
 * Fields of a request body that its endpoint does not know are ignored, unless the client asks
 * for strict handling with `Prefer: handling=strict` (RFC 7240): then a field that neither the body
 * nor the record it writes has is a 400 (`StrictBody`). This is the declaration's part: the record
 * of each write endpoint, and what the OpenAPI document says of bodies.
 */
import { Context, type Schema } from "effect"

/**
 * The record a write endpoint's body stands for, as a GET shows it. Under strict handling its
 * fields are known besides the body's own, so a client may send back what it read: the fields the
 * body does not take (ids, statuses, `created_by`, quantities received, picked or shipped …) are
 * read-only, and ignored.
 */
export class ReadOnlyFields extends Context.Tag("@wms/http/ReadOnlyFields")<ReadOnlyFields, Schema.Schema.Any>() {}

/** The answer's header when strict handling was applied. */
export const strictApplied = "handling=strict"

const preferParameter = {
  name: "Prefer",
  in: "header",
  required: false,
  schema: { type: "string" },
  description: "`handling=strict` (RFC 7240): a body field that the record does not have is 400 `Unknown field " +
    "<path>` instead of being ignored; the record's read-only fields (as a GET shows them) are still ignored. " +
    `The answer then carries \`Preference-Applied: ${strictApplied}\`.`
}

type Json = any

/**
 * The OpenAPI document with request bodies open to fields they do not declare (they are ignored
 * unless strict handling is asked for: the schemas' default `additionalProperties: false` would
 * say otherwise) and a `Prefer` header on every operation with a body.
 */
export const documentBodies = (spec: Json): Json => {
  const components: Record<string, Json> = spec.components?.schemas ?? {}
  const opened = new Set<Json>()
  const open = (schema: Json): void => {
    if (typeof schema !== "object" || schema === null || opened.has(schema)) return
    opened.add(schema)
    if (schema.additionalProperties === false) delete schema.additionalProperties
    const reference = typeof schema.$ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref) : null
    if (reference !== null) open(components[reference[1]])
    for (const value of Object.values(schema)) open(value)
  }
  for (const operations of Object.values<Json>(spec.paths ?? {})) {
    for (const operation of Object.values<Json>(operations)) {
      // Only a JSON body has fields: a file that an endpoint streams (`StreamedBody`) has none.
      if (typeof operation !== "object" || operation?.requestBody?.content?.["application/json"] === undefined) continue
      open(operation.requestBody)
      operation.parameters = [...(operation.parameters ?? []), preferParameter]
    }
  }
  return spec
}
