/**
 * Access tokens: JWTs signed with HS256, valid for one hour. The key comes from configuration or,
 * when none is configured, is generated once and kept in the database so tokens outlive a restart.
 * A token carries its user's token version (`ver`): it stands while the user exists, is active and
 * has not changed since (`Administration.checkSession`).
 */
import {
  Administration,
  ClientId,
  type Principal,
  SettingRepository,
  SiteId,
  Unauthenticated,
  type User,
  UserId
} from "@wms/core"
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { errors, jwtVerify, SignJWT } from "jose"
import { randomBytes } from "node:crypto"

/** Validity of a token in seconds. */
export const tokenLifetime = 3600

export const missingToken = new Unauthenticated({ message: "Missing authorization token" })
export const invalidToken = new Unauthenticated({ message: "Authorization token not valid" })

const Claims = Schema.Struct({
  sub: UserId,
  exp: Schema.Number,
  admin: Schema.Boolean,
  site: SiteId,
  client: Schema.NullOr(ClientId),
  // Tokens issued before versions existed have none: version 0, every user's first.
  ver: Schema.optionalWith(Schema.Number, { default: () => 0 })
})
const decodeClaims = Schema.decodeUnknownOption(Claims)

export class Tokens extends Context.Tag("@wms/http/Tokens")<Tokens, {
  readonly issue: (user: User, tokenVersion: number) => Effect.Effect<string>
  /** The principal of a valid token; fails with 401 `Authorization token not valid` otherwise. */
  readonly verify: (token: string) => Effect.Effect<Principal, Unauthenticated>
}>() {}

// Verified signatures, so each is checked once rather than on every request: at most this many,
// the oldest dropped first. Whether the user still stands is asked on every request.
const verifiedCacheSize = 10_000

interface Verified {
  readonly principal: Principal
  readonly tokenVersion: number
  /** The first instant (epoch ms) at which the token is expired, as jose decides it. */
  readonly expiresAt: number
}

/** The signing key: the configured secret, or one generated and stored on first use. */
const signingKey = (configured: Option.Option<Redacted.Redacted>) =>
  Option.match(configured, {
    onSome: (secret) => Effect.succeed(Redacted.value(secret)),
    onNone: () =>
      Effect.flatMap(SettingRepository, (settings) =>
        settings.getOrInsert("jwt_secret", () => randomBytes(32).toString("base64url")))
  }).pipe(Effect.map((secret) =>
    new TextEncoder().encode(secret)
  ))

export const layer = (secret: Option.Option<Redacted.Redacted>) =>
  Layer.effect(
    Tokens,
    Effect.gen(function*() {
      const key = yield* signingKey(secret)
      const administration = yield* Administration
      const verified = new Map<string, Verified>()

      const verifyAndKeep = (token: string, now: number) =>
        Effect.tryPromise({
          try: () =>
            jwtVerify(token, key, {
              algorithms: ["HS256"],
              requiredClaims: ["sub", "iat", "exp"],
              currentDate: new Date(now)
            }),
          catch: (error) => error
        }).pipe(
          Effect.catchIf((error) => !(error instanceof errors.JOSEError), Effect.die),
          Effect.flatMap(({ payload }) => decodeClaims(payload)),
          Effect.map((claims): Verified => {
            const principal: Principal = {
              userId: claims.sub,
              admin: claims.admin,
              site: claims.site,
              client: claims.client
            }
            // jose refuses once the whole seconds of `now` reach `exp`.
            const entry = { principal, tokenVersion: claims.ver, expiresAt: Math.ceil(claims.exp) * 1000 }
            if (verified.size >= verifiedCacheSize) verified.delete(verified.keys().next().value!)
            verified.set(token, entry)
            return entry
          }),
          Effect.mapError(() => invalidToken)
        )

      const standing = (entry: Verified) =>
        Effect.as(administration.checkSession(entry.principal.userId, entry.tokenVersion), entry.principal)

      return Tokens.of({
        issue: (user, tokenVersion) =>
          Effect.promise(() =>
            new SignJWT({ admin: user.admin, site: user.site, client: user.client, ver: tokenVersion })
              .setProtectedHeader({ alg: "HS256", typ: "JWT" })
              .setSubject(user.userId)
              .setIssuedAt()
              .setExpirationTime(`${tokenLifetime}s`)
              .sign(key)
          ),
        verify: (token) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const cached = verified.get(token)
            if (cached === undefined) return Effect.flatMap(verifyAndKeep(token, now), standing)
            if (now < cached.expiresAt) return standing(cached)
            verified.delete(token)
            return Effect.fail(invalidToken)
          })
      })
    })
  )
