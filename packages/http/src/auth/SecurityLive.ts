/**
 * The security middleware: bearer token first (401), then the `site` header (403), then, for admin
 * groups, admin rights (403), all before the body is read.
 */
import { HttpServerRequest } from "@effect/platform"
import { type Actor, Administration, Forbidden, Tenancy, type Unauthenticated } from "@wms/core"
import { Effect, Layer } from "effect"
import { AdminAuthorization, Authorization, TokenAuthentication } from "../api/Security.js"
import { missingToken, Tokens } from "./Tokens.js"

const missingSite = new Forbidden({ message: "Missing header site" })

// RFC 6750's form: the scheme in any case, then whitespace, then the token.
const bearerHeader = /^bearer[ \t]+(.*)$/i

/**
 * The token of an `Authorization: Bearer <token>` header, or `""` when the request carries none:
 * no header, another scheme (`Basic …`), a token without a scheme, or a scheme without a token.
 */
const bearerTokenOf = (authorization: string | undefined): string => {
  const match = authorization === undefined ? null : bearerHeader.exec(authorization)
  return match === null ? "" : match[1].trim()
}

const principalOf = (tokens: Tokens["Type"], authorization: string | undefined) => {
  const token = bearerTokenOf(authorization)
  return token === "" ? Effect.fail(missingToken) : tokens.verify(token)
}

/**
 * The caller of a request from its headers: the bearer token of `authorization` (401), then the
 * `site` header (403). The platform's bearer security hands over the header's value after its first
 * 7 characters whatever they are, so the header is read here. Shared with the node:http front of
 * the hot routes (`HotRoutes`).
 */
export const actorOf = (tokens: Tokens["Type"], administration: Administration) =>
(
  authorization: string | undefined,
  siteHeader: string | undefined
): Effect.Effect<Actor, Unauthenticated | Forbidden> =>
  Effect.flatMap(principalOf(tokens, authorization), (principal) => {
    const site = siteHeader?.trim()
    if (site === undefined || site === "") return missingSite
    return administration.actorFor(principal, site)
  })

export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const actor = actorOf(yield* Tokens, yield* Administration)
    return Authorization.of({
      bearer: () =>
        Effect.flatMap(
          HttpServerRequest.HttpServerRequest,
          (request) => actor(request.headers.authorization, request.headers["site"])
        )
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
  Effect.map(Tokens, (tokens) =>
    TokenAuthentication.of({
      bearer: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, ({ headers }) => principalOf(tokens, headers.authorization))
    }))
)
