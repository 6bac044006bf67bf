/**
 * Logging in and checking a token (§4.1 of the API document).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { TokenAuthentication } from "./Security.js"

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

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("login", "/login")
      .setPayload(LoginRequest)
      .addSuccess(LoginResult)
      .annotate(OpenApi.Description, "Returns a JWT valid for one hour. Wrong credentials: 401 `User/password not correct`.")
  )
  .add(
    HttpApiEndpoint.get("verifyToken", "/verifytoken")
      .addSuccess(MessageResult)
      .middleware(TokenAuthentication)
      .annotate(OpenApi.Description, "200 when the bearer token is valid; 401 `Authorization token not valid` when not.")
  )
  .annotate(OpenApi.Title, "Authentication")
{}
