/**
 * A feature's handlers as one table: for each endpoint of its group, a function of the caller and
 * the endpoint's decoded input, with the facade's methods beside it (`Methods`). The table is all that is written per feature; the `HttpApi`
 * handlers (`derived/HttpApiLive.ts`), the Promise facade (`derived/Facade.ts`) and the hot routes'
 * front (`derived/HotRoutes.ts`) are derived from it and the group's declaration.
 *
 * The groups with no caller keep the platform's builder (`GroupHandlers`): `system` has no
 * security, and `auth` has a token's principal at most (`login` none, and it reads the request's
 * address). An entry's first argument would be a lie for them, and the facade, which trusts its
 * caller, offers neither.
 */
import type { HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { Actor } from "@wms/core"
import type { Effect, Schema, Types } from "effect"
import type { BadRequest, InternalError, PayloadTooLargeError } from "../api/Errors.js"

/** The failures the API declares for every endpoint (`Api.ts`). */
export type ApiError = Schema.Schema.Type<typeof BadRequest | typeof PayloadTooLargeError | typeof InternalError>

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
export type Failure<G extends HttpApiGroup.HttpApiGroup.Any, E extends HttpApiEndpoint.HttpApiEndpoint.Any> =
  | HttpApiEndpoint.HttpApiEndpoint.Error<E>
  | HttpApiGroup.HttpApiGroup.Error<G>
  | ApiError

/** The handler of endpoint `E` of group `G`: the caller and the decoded input, no requirement left. */
export type Entry<G extends HttpApiGroup.HttpApiGroup.Any, E extends HttpApiEndpoint.HttpApiEndpoint.Any> = (
  actor: Actor,
  input: Input<E>
) => Effect.Effect<Answer<E>, Failure<G, E>>

/** The table of group `G`: an entry per endpoint. */
export type Table<G extends HttpApiGroup.HttpApiGroup.Any> = {
  readonly [E in HttpApiGroup.HttpApiGroup.Endpoints<G> as HttpApiEndpoint.HttpApiEndpoint.Name<E>]: Entry<G, E>
}

/** An endpoint's input as a facade method's arguments give it: path and query values as typed, the body as JSON. */
export type Given<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = Types.Simplify<
  { readonly [K in keyof Input<E>]: K extends "payload" ? unknown : Input<E>[K] }
>

/**
 * The facade's methods of group `G` (`derived/Facade.ts`): for each endpoint, how the method's
 * positional arguments make the endpoint's input.
 */
export type Methods<G extends HttpApiGroup.HttpApiGroup.Any> = {
  readonly [E in HttpApiGroup.HttpApiGroup.Endpoints<G> as HttpApiEndpoint.HttpApiEndpoint.Name<E>]: (
    ...args: never
  ) => Given<E>
}

/** The handlers of a group with no caller, as the platform's `HttpApiBuilder.group` builds them. */
export type GroupHandlers<G extends HttpApiGroup.HttpApiGroup.Any, Return> = (
  handlers: HttpApiBuilder.Handlers.FromGroup<ApiError, never, G>
) => HttpApiBuilder.Handlers.ValidateReturn<Return>
