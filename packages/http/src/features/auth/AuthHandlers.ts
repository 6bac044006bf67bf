import { HttpServerRequest } from "@effect/platform"
import { Administration, normalizeEmail } from "@wms/core"
import { Clock, Effect, Option } from "effect"
import { CurrentPrincipal } from "../../api/Security.js"
import * as LoginThrottle from "../../auth/LoginThrottle.js"
import { tokenLifetime, Tokens } from "../../auth/Tokens.js"
import { groupHandlers } from "../Feature.js"
import { AuthApi } from "./AuthApi.js"

export const AuthHandlers = groupHandlers(AuthApi)((handlers) =>
  Effect.gen(function*() {
    const administration = yield* Administration
    const tokens = yield* Tokens
    const throttle = LoginThrottle.make(yield* LoginThrottle.LoginThrottleOptionsRef)
    return handlers
      .handle("login", ({ payload }) =>
        Effect.gen(function*() {
          const email = normalizeEmail(payload.email)
          const request = yield* HttpServerRequest.HttpServerRequest
          const address = Option.getOrElse(request.remoteAddress, () => "unknown")
          const refusal = throttle.refusal(email, address, yield* Clock.currentTimeMillis)
          if (refusal !== undefined) return yield* refusal
          const { site, tokenVersion, user } = yield* administration.authenticate(email, payload.password).pipe(
            Effect.tapError(() => Effect.map(Clock.currentTimeMillis, (now) => throttle.failed(email, address, now)))
          )
          throttle.succeeded(email)
          return {
            token: yield* tokens.issue(user, tokenVersion),
            userId: user.userId,
            expiresIn: tokenLifetime,
            admin: user.admin,
            site: user.site,
            name: user.name,
            email: user.email,
            client: user.client,
            fulfillment: site.fulfillment
          }
        }))
      .handle("verifyToken", () => Effect.as(CurrentPrincipal, { message: "Authorization token is valid" }))
      .handle("changePassword", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          administration.changePassword(principal, payload)))
  })
)
