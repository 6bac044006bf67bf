/**
 * A feature's handlers as one table: for each endpoint of its group, a function of the caller and
 * the endpoint's decoded input. The table is all that is written per feature; the `HttpApi`
 * handlers (`toHttpApi`), the Promise facade (`Facade.ts`) and the hot routes' front
 * (`HotRoutes.ts`) are derived from it and the API declaration.
 *
 * The groups with no caller keep the platform's `HttpApiBuilder.group`: `system` has no security,
 * and `auth` has a token's principal at most (`login` none, and it reads the request's address).
 * An entry's first argument would be a lie for them, and the facade, which trusts its caller,
 * offers neither.
 */
import {
  type HttpApi,
  HttpApiBuilder,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpApiSchema,
  HttpServerResponse
} from "@effect/platform"
import type { Actor } from "@wms/core"
import { Context, Effect, type Layer, Option, Schema, type Scope, type Types } from "effect"
import { WarehouseApi } from "../Api.js"
import { CreatedAt } from "../api/CreatedAt.js"
import { CurrentActor } from "../api/Security.js"
import { counts, takesWindow, withTotalCount } from "../api/TotalCount.js"

type Groups = typeof WarehouseApi extends HttpApi.HttpApi<string, infer G, infer _E, infer _R> ? G : never
type ApiError = typeof WarehouseApi extends HttpApi.HttpApi<string, infer _G, infer E, infer _R> ? E : never

/** The name of a group of the API. */
export type GroupName = HttpApiGroup.HttpApiGroup.Name<Groups>

/** The endpoints of group `G`. */
export type Endpoints<G extends GroupName> = HttpApiGroup.HttpApiGroup.EndpointsWithName<Groups, G>

/** The names of the endpoints of group `G`. */
export type EndpointName<G extends GroupName> = HttpApiEndpoint.HttpApiEndpoint.Name<Endpoints<G>>

/** The endpoint `E` of group `G`. */
export type Endpoint<G extends GroupName, E extends EndpointName<G>> = HttpApiEndpoint.HttpApiEndpoint.WithName<
  Endpoints<G>,
  E
>

/** What an endpoint's schemas decode from a request: its `path`, `urlParams`, `payload` and `headers`, those it has. */
export type Input<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = Types.Simplify<
  Omit<HttpApiEndpoint.HttpApiEndpoint.Request<E>, "request">
>

/**
 * What an entry succeeds with: the endpoint's success. An endpoint that answers 204 with no body
 * takes whatever its entry returns, such as a new record's id, which only the facade hands back.
 */
export type Answer<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = [HttpApiEndpoint.HttpApiEndpoint.Success<E>] extends
  [void] ? unknown : HttpApiEndpoint.HttpApiEndpoint.Success<E>

/** The failures an endpoint of group `G` declares, its own, its group's and the API's. */
export type Failure<G extends GroupName, E extends HttpApiEndpoint.HttpApiEndpoint.Any> =
  | HttpApiEndpoint.HttpApiEndpoint.Error<E>
  | HttpApiGroup.HttpApiGroup.ErrorWithName<Groups, G>
  | ApiError

/** The handler of endpoint `E` of group `G`: the caller and the decoded input, no requirement left. */
export type Entry<G extends GroupName, E extends HttpApiEndpoint.HttpApiEndpoint.Any> = (
  actor: Actor,
  input: Input<E>
) => Effect.Effect<Answer<E>, Failure<G, E>>

/** The table of group `G`: an entry per endpoint. */
export type Table<G extends GroupName> = {
  readonly [E in Endpoints<G> as HttpApiEndpoint.HttpApiEndpoint.Name<E>]: Entry<G, E>
}

/** A group's handlers as `toHttpApi` fills them, by endpoint name: the table's types were checked against the group's. */
interface Handlers {
  readonly handle: (name: string, handler: (input: never) => Effect.Effect<unknown, unknown, CurrentActor>) => Handlers
}

/** A table as `toHttpApi` reads it, by endpoint name. */
type Entries = Record<string, (actor: Actor, input: never) => Effect.Effect<unknown, unknown>>

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
 * The `HttpApi` handlers of group `G` from its table: each entry is called with the caller the
 * group's security middleware provides (`CurrentActor`). A create (`CreatedAt`) answers with the
 * new record's `Location`, and a list read with a `limit` with the list's `X-Total-Count`.
 */
export const toHttpApi = <const G extends GroupName, T extends Table<G>, E, R>(
  group: G,
  make: Effect.Effect<T, E, R>
): Layer.Layer<
  HttpApiGroup.ApiGroup<"warehouse", G>,
  E,
  Exclude<R, Scope.Scope> | HttpApiGroup.HttpApiGroup.MiddlewareWithName<Groups, G>
> =>
  // The builder types each `handle` by a literal name; fed by name in a loop it is read as
  // `Handlers`, and the layer is typed by the signature above.
  HttpApiBuilder.group(
    WarehouseApi,
    group as GroupName,
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
