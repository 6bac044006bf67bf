/**
 * The security middleware: bearer token first (401), then the `site` header (403), then, for admin
 * groups, admin rights (403), all before the body is read.
 */
import { HttpServerRequest } from "@effect/platform"
import { Administration, Forbidden, Tenancy } from "@wms/core"
import { Effect, Layer, Redacted } from "effect"
import { AdminAuthorization, Authorization, TokenAuthentication } from "../api/Security.js"
import { missingToken, Tokens } from "../Tokens.js"

const missingSite = new Forbidden({ message: "Missing header site" })

const principalOf = (tokens: Tokens["Type"], token: Redacted.Redacted<string>) => {
  const value = Redacted.value(token).trim()
  return value === "" ? Effect.fail(missingToken) : tokens.verify(value)
}

export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const tokens = yield* Tokens
    const administration = yield* Administration
    return Authorization.of({
      bearer: (token) =>
        Effect.gen(function*() {
          const principal = yield* principalOf(tokens, token)
          const request = yield* HttpServerRequest.HttpServerRequest
          const site = request.headers["site"]?.trim()
          if (site === undefined || site === "") return yield* missingSite
          return yield* administration.actorFor(principal, site)
        })
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
