/**
 * `X-Total-Count` on a list read with a `limit`: the number of records the list's filters match
 * without its window, counted by the read itself (`withListTotal`), so that a client can page
 * without reading the whole list. A read without `limit` answers as it always did, counting nothing.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { type ListWindow, withListTotal } from "@wms/core"
import { Effect, Option, type Schema, SchemaAST } from "effect"

/** The header, as Node and the platform write it. */
export const totalCountHeader = "x-total-count"

/** Whether an endpoint's query schema takes a list window (`limit` and `offset`, `ListWindow`). */
export const takesWindow = (urlParams: Option.Option<Schema.Schema.All>) =>
  Option.isSome(urlParams) &&
  SchemaAST.getPropertySignatures(urlParams.value.ast).some((signature) => signature.name === "limit")

/** Whether a decoded query asks for a part of the list, which is counted. */
export const counts = (urlParams: unknown) => (urlParams as ListWindow).limit !== undefined

/** Runs a list read whose answer carries `X-Total-Count` when the read counted the list. */
export const withTotalCount = <A, E, R>(read: Effect.Effect<A, E, R>) =>
  Effect.flatMap(withListTotal(read), ([result, total]) =>
    total === undefined ? Effect.succeed(result) : Effect.as(
      HttpApp.appendPreResponseHandler((_, response) =>
        Effect.succeed(HttpServerResponse.setHeader(response, totalCountHeader, String(total)))
      ),
      result
    ))

/** The header in the OpenAPI document of an operation with a `limit` query parameter, on its 200. */
export const documentTotalCount = (operation: Record<string, any>) => {
  const limited = (operation.parameters ?? []).some((parameter: Record<string, unknown>) =>
    parameter.in === "query" && parameter.name === "limit"
  )
  if (!limited || operation.responses?.["200"] === undefined) return
  operation.responses["200"] = {
    ...operation.responses["200"],
    headers: {
      "X-Total-Count": {
        description: "With `limit` only: how many records the list's filters match, without `limit` and `offset`.",
        schema: { type: "integer", minimum: 0 }
      }
    }
  }
}
