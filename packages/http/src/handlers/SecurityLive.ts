/**
 * The security middleware: bearer token first (401), then the `site` header (403), then, for admin
 * groups, admin rights (403), all before the body is read.
 */
import { HttpServerRequest } from "@effect/platform"
import { type Actor, Administration, Forbidden, Tenancy, type Unauthenticated } from "@wms/core"
import { Effect, Layer, Redacted } from "effect"
import { AdminAuthorization, Authorization, TokenAuthentication } from "../api/Security.js"
import { missingToken, Tokens } from "../Tokens.js"

const missingSite = new Forbidden({ message: "Missing header site" })

const principalOf = (tokens: Tokens["Type"], token: Redacted.Redacted<string>) => {
  const value = Redacted.value(token).trim()
  return value === "" ? Effect.fail(missingToken) : tokens.verify(value)
}

/**
 * The caller of a request from its headers: the bearer token (401), then the `site` header (403).
 * `token` is the `authorization` header's value after its first 7 characters (`Bearer `), as the
 * platform's bearer security cuts it. Shared with the node:http front of the hot routes (`HotRoutes`).
 */
export const actorOf = (tokens: Tokens["Type"], administration: Administration) =>
(
  token: Redacted.Redacted<string>,
  siteHeader: string | undefined
): Effect.Effect<Actor, Unauthenticated | Forbidden> =>
  Effect.flatMap(principalOf(tokens, token), (principal) => {
    const site = siteHeader?.trim()
    if (site === undefined || site === "") return missingSite
    return administration.actorFor(principal, site)
  })

export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const actor = actorOf(yield* Tokens, yield* Administration)
    return Authorization.of({
      bearer: (token) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => actor(token, request.headers["site"]))
    })
  })
)

/** Admin groups: whatever `Authorization` is in place, then admin rights. */
export const AdminAuthorizationLive = Layer.effect(
  AdminAuthorization,
  Effect.map(Authorization, (authorization) =>
    AdminAuthorization.of({
      bearer: (token) => Effect.tap(authorization.bearer(token), Tenancy.requireAdmin)
    }))
)

export const TokenAuthenticationLive = Layer.effect(
  TokenAuthentication,
  Effect.map(Tokens, (tokens) => TokenAuthentication.of({ bearer: (token) => principalOf(tokens, token) }))
)
