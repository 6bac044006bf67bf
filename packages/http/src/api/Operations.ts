/**
 * What the OpenAPI document says of each operation beyond the platform's output: the `site` header
 * as a security scheme beside the bearer token, a summary, the `Idempotency-Key` header of POSTs
 * (but those that stream their body, `StreamedBody`, which refuse it), and the `X-Total-Count` of
 * list reads with a `limit`.
 * The platform lists the schemes of one middleware as alternatives, so the header that
 * `Authorization` checks besides the token is added here; the checks themselves stay in the middleware.
 */
import { HttpApi, type HttpApiGroup } from "@effect/platform"
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
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, middleware }) => {
      const checksSite = [Authorization, AdminAuthorization].some((tag) => middleware.has(tag as never))
      if (checksSite) siteScoped.add(`${group.identifier}.${endpoint.name}`)
      if (isStreamed(endpoint.annotations)) streamed.add(`${group.identifier}.${endpoint.name}`)
    }
  })
  return (spec: Json): Json => {
    spec.components.securitySchemes.site = siteScheme
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
        }
        documentTotalCount(operation)
      }
    }
    return spec
  }
}
