/**
 * The security middleware of the API. `Authorization` checks the bearer token (401), then the
 * `site` header (403), and provides the caller as `CurrentActor`; `TokenAuthentication` checks the
 * token only.
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import type { Actor, Principal } from "@wms/core"
import { Context, Schema } from "effect"
import { ForbiddenError, Unauthorized } from "./Errors.js"

/** The caller of the request and the scope of its `site` header. */
export class CurrentActor extends Context.Tag("@wms/http/CurrentActor")<CurrentActor, Actor>() {}

/** The caller of a request that needs a token but no `site` header. */
export class CurrentPrincipal extends Context.Tag("@wms/http/CurrentPrincipal")<CurrentPrincipal, Principal>() {}

export const bearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "A token from POST /login: `Authorization: Bearer <token>`. Operations that also need `site: <site_id or client_id>` list the `site` scheme."
  )
)

export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@wms/http/Authorization", {
  failure: Schema.Union(Unauthorized, ForbiddenError),
  provides: CurrentActor,
  security: { bearer }
}) {}

/** `Authorization` for admin-only groups: a caller who is no admin gets 403 before its body is read. */
export class AdminAuthorization extends HttpApiMiddleware.Tag<AdminAuthorization>()("@wms/http/AdminAuthorization", {
  failure: Schema.Union(Unauthorized, ForbiddenError),
  provides: CurrentActor,
  security: { bearer }
}) {}

export class TokenAuthentication extends HttpApiMiddleware.Tag<TokenAuthentication>()("@wms/http/TokenAuthentication", {
  failure: Unauthorized,
  provides: CurrentPrincipal,
  security: { bearer }
}) {}
