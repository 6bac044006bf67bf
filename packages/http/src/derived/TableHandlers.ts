/**
 * A feature's table as `HttpApi` handlers: each entry called with the caller the group's security
 * middleware provides (`CurrentActor`). A create (`CreatedAt`) answers with the new record's
 * `Location`, and a list read with a `limit` with the list's `X-Total-Count`.
 */
import { HttpApiBuilder, type HttpApiGroup, HttpApiSchema, HttpServerResponse } from "@effect/platform"
import type { Actor } from "@wms/core"
import { Context, Effect, type Layer, Option, Schema } from "effect"
import { type GroupName, WarehouseApi } from "../Api.js"
import { CreatedAt } from "../api/CreatedAt.js"
import { CurrentActor } from "../api/Security.js"
import { counts, takesWindow, withTotalCount } from "../api/TotalCount.js"

/** A group's handlers as `toHttpApi` fills them, by endpoint name: the table's types were checked against the group's. */
interface Handlers {
  readonly handle: (name: string, handler: (input: never) => Effect.Effect<unknown, unknown, CurrentActor>) => Handlers
}

/** A table as `toHttpApi` reads it, by endpoint name. */
export type Entries = Record<string, (actor: Actor, input: never) => Effect.Effect<unknown, unknown>>

/**
 * A create's answer with the new record's `Location`: a 204, or the record encoded by the
 * endpoint's success schema with its status (201). The record was built by the engine, so a
 * failure to encode it is a defect.
 */
const answerWithLocation = (success: Schema.Schema<unknown>) => {
  if (HttpApiSchema.isVoid(success.ast)) {
    return (_created: unknown, location: string) =>
      Effect.succeed(HttpServerResponse.empty({ status: 204, headers: { location } }))
  }
  const status = HttpApiSchema.getStatusSuccess(success)
  const encode = Schema.encode(success)
  return (created: unknown, location: string) =>
    encode(created).pipe(
      Effect.flatMap((body) => HttpServerResponse.json(body, { status, headers: { location } })),
      Effect.orDie
    )
}

/**
 * The `HttpApi` handlers of the group named `group` from its table, whose types were checked against
 * the group's (`Table`); the layer's failures and requirements are those of `make` and the group's
 * middleware, which `HttpApiLive` types from the features.
 */
export const toHttpApi = (
  group: GroupName,
  make: Effect.Effect<Entries, unknown, unknown>
): Layer.Layer<HttpApiGroup.ApiGroup<"warehouse", GroupName>, unknown, unknown> =>
  // The builder types each `handle` by a literal name; fed by name in a loop it is read as
  // `Handlers`.
  HttpApiBuilder.group(
    WarehouseApi,
    group,
    (handlers): never =>
      Effect.map(make, (table: Entries) =>
        Object.keys(WarehouseApi.groups[group].endpoints).reduce((built, name) => {
          const entry = table[name]!
          const endpoints: Record<
            string,
            {
              readonly annotations: Context.Context<never>
              readonly successSchema: Schema.Schema.Any
              readonly urlParamsSchema: Option.Option<Schema.Schema.All>
            }
          > = WarehouseApi.groups[group].endpoints
          if (takesWindow(endpoints[name]!.urlParamsSchema)) {
            return built.handle(name, (input: { readonly urlParams: unknown }) =>
              Effect.flatMap(CurrentActor, (actor) =>
                counts(input.urlParams)
                  ? withTotalCount(entry(actor, input as never))
                  : entry(actor, input as never)))
          }
          const createdAt = Context.getOption(endpoints[name]!.annotations, CreatedAt)
          if (Option.isNone(createdAt)) {
            return built.handle(name, (input) =>
              Effect.flatMap(CurrentActor, (actor) => entry(actor, input)))
          }
          const locate = createdAt.value
          // A create's record schema needs no service.
          const answer = answerWithLocation(endpoints[name]!.successSchema as Schema.Schema<unknown>)
          return built.handle(name, (input) =>
            Effect.flatMap(CurrentActor, (actor) =>
              Effect.flatMap(entry(actor, input), (created) =>
                answer(created, locate(input, created)))))
        }, handlers as unknown as Handlers)) as never
  ) as never
