import { HttpApiBuilder } from "@effect/platform"
import { Administration } from "@wms/core"
import { Effect } from "effect"
import { CurrentPrincipal } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"
import { tokenLifetime, Tokens } from "../Tokens.js"

export const AuthHandlers = HttpApiBuilder.group(WarehouseApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const administration = yield* Administration
    const tokens = yield* Tokens
    return handlers
      .handle("login", ({ payload }) =>
        Effect.gen(function*() {
          const { site, user } = yield* administration.authenticate(payload.email, payload.password)
          return {
            token: yield* tokens.issue(user),
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
  }))
