/**
 * Logging in and checking a token (§4.1 of the API document).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { PasswordChange, UserNotFound } from "@wms/core"
import { Schema } from "effect"
import { onTheWire, TooManyLogins, Unauthorized } from "../../api/Errors.js"
import { TokenAuthentication } from "../../api/Security.js"

export const LoginRequest = Schema.Struct({
  email: Schema.String,
  password: Schema.String
})

export const LoginResult = Schema.Struct({
  token: Schema.String,
  userId: Schema.String,
  expiresIn: Schema.Number,
  admin: Schema.Boolean,
  site: Schema.String,
  name: Schema.String,
  email: Schema.String,
  client: Schema.NullOr(Schema.String),
  fulfillment: Schema.Boolean
})

export const MessageResult = Schema.Struct({ message: Schema.String })

/** 429 `{message}` with `Retry-After` (seconds); the header is set by the error responses. */
const TooManyLoginsError = Schema.transform(MessageResult, Schema.typeSchema(TooManyLogins), {
  strict: true,
  decode: ({ message }) => new TooManyLogins({ message, retryAfterSeconds: 0 }),
  encode: ({ message }) => ({ message })
}).annotations(HttpApiSchema.annotations({
  status: 429,
  description:
    "Too many failed logins for this e-mail address or from this client address; `Retry-After` says when to try again"
}))

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("login", "/login")
      .annotate(OpenApi.Summary, "Log in")
      .setPayload(LoginRequest)
      .addSuccess(LoginResult)
      .addError(TooManyLoginsError)
      .addError(Unauthorized)
      .annotate(
        OpenApi.Description,
        "Returns a JWT valid for one hour. Wrong credentials, or a disabled user: 401 `User/password not correct`. " +
          "After 5 failures for one e-mail address, or 50 from one client address, within 15 minutes (configurable): " +
          "429 with `Retry-After` until the oldest failure is 15 minutes old."
      )
  )
  .add(
    HttpApiEndpoint.get("verifyToken", "/verifytoken")
      .addSuccess(MessageResult)
      .middleware(TokenAuthentication)
      .annotate(
        OpenApi.Description,
        "200 when the bearer token is valid; 401 `Authorization token not valid` when not."
      )
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/users/me/password")
      .setPayload(PasswordChange)
      .middleware(TokenAuthentication)
      .addError(onTheWire(UserNotFound))
      .annotate(
        OpenApi.Description,
        "Extension: the caller changes its own password (token only, no `site` header). A wrong " +
          "`current_password`: 400. 204; every token of the user ends, this one too: log in again."
      )
  )
  .annotate(OpenApi.Title, "Authentication")
  .annotate(
    OpenApi.Description,
    "Tokens: POST /login gives one; the other operations need the token but no `site` header."
  )
{}
