/**
 * A typed client of the warehouse REST API, derived from the same declaration the server serves
 * (`@wms/http/client`; it loads no server, store or Node code). Every endpoint is a method of its
 * group, with typed payloads and results. An error response `{message}` comes back as the core's
 * tagged error that the endpoint declares for its status and text, with its data read back from the
 * text (`OrderNotFound { orderId }` for `GET /orders/:id`'s 404, `WaveStarted { waveId }`, …), or
 * as `InvalidInput` (400), `Unauthenticated` (401) or `Forbidden` (403).
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const wms = yield* login({ baseUrl: "http://localhost:3000", email, password, site: "main" })
 *   return yield* wms.orders.getOrder({ path: { id: "SO-1" } })
 * })
 * program.pipe(Effect.provide(FetchHttpClient.layer), Effect.runPromise)
 * ```
 */
// First: @wms/core checks the versions of Node.js and effect before the other modules run.
import "@wms/core"
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { WarehouseApi } from "./Api.js"

export { WarehouseApi } from "./Api.js"
export * from "./api/Errors.js"

/** Where the server is, and the credentials every request carries. */
export interface ClientOptions {
  /** The server's address, with the prefix it is mounted under, e.g. `http://localhost:3000`. */
  readonly baseUrl: string | URL
  /** A token from `POST /login`, sent as `Authorization: Bearer <token>`. */
  readonly token?: string
  /** The `site` header: a site id or a client id. */
  readonly site?: string
}

const withCredentials = (options: ClientOptions) => (request: HttpClientRequest.HttpClientRequest) => {
  const authorized = options.token === undefined ? request : HttpClientRequest.bearerToken(request, options.token)
  return options.site === undefined ? authorized : HttpClientRequest.setHeader(authorized, "site", options.site)
}

/** The groups under the ids they had before group ids were all camelCase (0.1); removed in 0.3. */
const withFormerGroupIds = <
  C extends { readonly preAdvices: unknown; readonly skuGroups: unknown; readonly pickMethods: unknown }
>(
  client: C
): C & {
  /** @deprecated Use `preAdvices`. */
  readonly preadvices: C["preAdvices"]
  /** @deprecated Use `skuGroups`. */
  readonly skugroups: C["skuGroups"]
  /** @deprecated Use `pickMethods`. */
  readonly pickmethods: C["pickMethods"]
} => ({ ...client, preadvices: client.preAdvices, skugroups: client.skuGroups, pickmethods: client.pickMethods })

/** The typed client; needs an `HttpClient` (`FetchHttpClient.layer`, or `NodeHttpClient.layer`). */
export const makeClient = (options: ClientOptions) =>
  HttpApiClient.make(WarehouseApi, {
    baseUrl: options.baseUrl,
    transformClient: HttpClient.mapRequest(withCredentials(options))
  }).pipe(Effect.map(withFormerGroupIds))

/** The client `makeClient` builds. */
export type WarehouseHttpClient = Effect.Effect.Success<ReturnType<typeof makeClient>>

/** Logs in with `POST /login` and returns a client that carries the token and the `site` header. */
export const login = (options: {
  readonly baseUrl: string | URL
  readonly email: string
  readonly password: string
  readonly site?: string
}) =>
  Effect.gen(function*() {
    const anonymous = yield* makeClient({ baseUrl: options.baseUrl })
    const { token } = yield* anonymous.auth.login({ payload: { email: options.email, password: options.password } })
    const site = options.site === undefined ? {} : { site: options.site }
    return yield* makeClient({ baseUrl: options.baseUrl, token, ...site })
  })
