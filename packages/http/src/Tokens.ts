/**
 * Access tokens: JWTs signed with HS256, valid for one hour. The key comes from configuration or,
 * when none is configured, is generated once and kept in the database so tokens outlive a restart.
 */
import { ClientId, type Principal, SettingRepository, SiteId, Unauthenticated, type User, UserId } from "@wms/core"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { errors, jwtVerify, SignJWT } from "jose"
import { randomBytes } from "node:crypto"

/** Validity of a token in seconds. */
export const tokenLifetime = 3600

export const missingToken = new Unauthenticated({ message: "Missing authorization token" })
export const invalidToken = new Unauthenticated({ message: "Authorization token not valid" })

const Claims = Schema.Struct({
  sub: UserId,
  admin: Schema.Boolean,
  site: SiteId,
  client: Schema.NullOr(ClientId)
})
const decodeClaims = Schema.decodeUnknownOption(Claims)

export class Tokens extends Context.Tag("@wms/http/Tokens")<Tokens, {
  readonly issue: (user: User) => Effect.Effect<string>
  /** The principal of a valid token; fails with 401 `Authorization token not valid` otherwise. */
  readonly verify: (token: string) => Effect.Effect<Principal, Unauthenticated>
}>() {}

/** The signing key: the configured secret, or one generated and stored on first use. */
const signingKey = (configured: Option.Option<Redacted.Redacted>) =>
  Option.match(configured, {
    onSome: (secret) => Effect.succeed(Redacted.value(secret)),
    onNone: () =>
      Effect.flatMap(SettingRepository, (settings) =>
        settings.getOrInsert("jwt_secret", () => randomBytes(32).toString("base64url")))
  }).pipe(Effect.map((secret) => new TextEncoder().encode(secret)))

export const layer = (secret: Option.Option<Redacted.Redacted>) =>
  Layer.effect(
    Tokens,
    Effect.gen(function*() {
      const key = yield* signingKey(secret)
      return Tokens.of({
        issue: (user) =>
          Effect.promise(() =>
            new SignJWT({ admin: user.admin, site: user.site, client: user.client })
              .setProtectedHeader({ alg: "HS256", typ: "JWT" })
              .setSubject(user.userId)
              .setIssuedAt()
              .setExpirationTime(`${tokenLifetime}s`)
              .sign(key)
          ),
        verify: (token) =>
          Effect.tryPromise({
            try: () => jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["sub", "iat", "exp"] }),
            catch: (error) => error
          }).pipe(
            Effect.catchIf((error) => !(error instanceof errors.JOSEError), Effect.die),
            Effect.flatMap(({ payload }) => decodeClaims(payload)),
            Effect.map((claims): Principal => ({
              userId: claims.sub,
              admin: claims.admin,
              site: claims.site,
              client: claims.client
            })),
            Effect.mapError(() => invalidToken)
          )
      })
    })
  )
