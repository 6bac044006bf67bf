/**
 * What the OpenAPI document says of each operation beyond the platform's output: the `site` header
 * as a security scheme beside the bearer token, a summary, the `Idempotency-Key` header of POSTs
 * (but those that stream their body, `StreamedBody`, which refuse it) with the 409 of a key reused,
 * a body that may be absent (a payload that takes `null`, as the platform reads an empty body) as
 * not required, and the `X-Total-Count` of list reads with a `limit`.
 * The platform lists the schemes of one middleware as alternatives, so the header that
 * `Authorization` checks besides the token is added here; the checks themselves stay in the middleware.
 */
import { HttpApi, type HttpApiGroup } from "@effect/platform"
import { Either, Option, Schema } from "effect"
import { AdminAuthorization, Authorization } from "./Security.js"
import { isStreamed } from "./StreamedBody.js"
import { documentTotalCount } from "./TotalCount.js"

type Json = any

const siteScheme = {
  type: "apiKey",
  in: "header",
  name: "site",
  description: "The site or client the request acts for: `site: <site_id or client_id>`. Without it: 403 " +
    "`Missing header site`."
}

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", pattern: "^[!#-\\[\\]-~]{1,255}$" },
  description: "A retry with the same key and the same request within 24 hours gets the first answer, with " +
    "`Idempotent-Replayed: true`, and runs nothing; the key with another request is a 409."
}

const keyReused = "IdempotencyKeyReused"

/** The answer to an `Idempotency-Key` used before with another request, as `Idempotency` gives it. */
const keyReusedSchema = {
  type: "object",
  required: ["message"],
  properties: { message: { type: "string" } },
  additionalProperties: false,
  description: "Idempotency-Key <key> was used with another request"
}

/** The operation's 409s, with the one of a reused key among them. */
const withKeyReused = (conflict: Json): Json => {
  const reused = { $ref: `#/components/schemas/${keyReused}` }
  if (conflict === undefined) {
    return { description: keyReusedSchema.description, content: { "application/json": { schema: reused } } }
  }
  const schema = conflict.content["application/json"].schema
  return {
    description: `${conflict.description}; or ${keyReusedSchema.description}`,
    content: { "application/json": { schema: { anyOf: [...(schema.anyOf ?? [schema]), reused] } } }
  }
}

/** An endpoint's name as a summary, when it declares none: `listPreAdviceLines` as "List pre-advice lines". */
const summaryOf = (name: string): string =>
  name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()
    .replace(/\bsku(s?)\b/g, "SKU$1")
    .replace(/\bpre advice/g, "pre-advice")
    .replace(/^./, (first) => first.toUpperCase())

/** The transform of the OpenAPI document of `api`. */
export const documentOperations = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) => {
  const siteScoped = new Set<string>()
  const streamed = new Set<string>()
  const optionalBody = new Set<string>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, middleware }) => {
      const id = `${group.identifier}.${endpoint.name}`
      const checksSite = [Authorization, AdminAuthorization].some((tag) => middleware.has(tag as never))
      if (checksSite) siteScoped.add(id)
      if (isStreamed(endpoint.annotations)) streamed.add(id)
      const payload = endpoint.payloadSchema as unknown as Option.Option<Schema.Schema<unknown, unknown>>
      if (Option.isSome(payload) && Either.isRight(Schema.decodeUnknownEither(payload.value)(null))) {
        optionalBody.add(id)
      }
    }
  })
  return (spec: Json): Json => {
    spec.components.securitySchemes.site = siteScheme
    spec.components.schemas[keyReused] = keyReusedSchema
    for (const [path, operations] of Object.entries<Json>(spec.paths ?? {})) {
      for (const [method, operation] of Object.entries<Json>(operations)) {
        if (typeof operation !== "object" || operation === null || operation.operationId === undefined) continue
        const [, name] = operation.operationId.split(".")
        operation.summary ??= summaryOf(name)
        if (siteScoped.has(operation.operationId)) {
          operation.security = operation.security.map((requirement: Json) => ({ ...requirement, site: [] }))
        }
        if (
          method === "post" && operation.security.length > 0 && path !== "/login" &&
          !streamed.has(operation.operationId)
        ) {
          operation.parameters = [...(operation.parameters ?? []), idempotencyKeyParameter]
          operation.responses["409"] = withKeyReused(operation.responses["409"])
        }
        if (optionalBody.has(operation.operationId)) operation.requestBody.required = false
        documentTotalCount(operation)
      }
    }
    return spec
  }
}
