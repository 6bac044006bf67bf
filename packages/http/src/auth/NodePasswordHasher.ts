/**
 * Passwords as salted scrypt hashes (`scrypt$N$r$p$salt$key`, base64 parts), computed on
 * libuv's thread pool so a login never blocks the server. The cost is OWASP's minimum for scrypt
 * (N = 2^17, r = 8, p = 1) unless configured otherwise; a stored hash of a lower cost is replaced
 * at its user's next login (`needsRehash`).
 */
import { PasswordHasher } from "@wms/core"
import { Effect, Layer } from "effect"
import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from "node:crypto"

/** log2 of scrypt's N by default: OWASP's minimum. */
export const defaultCost = 17

const keyLength = 32

const derive = (
  password: string,
  salt: Buffer,
  options: Required<Pick<ScryptOptions, "N" | "r" | "p">>,
  length: number
) =>
  Effect.async<Buffer>((resume) => {
    // scrypt needs 128 · N · r bytes; Node refuses more than `maxmem` (32 MiB by default).
    const maxmem = 2 * 128 * options.N * options.r
    scrypt(password.normalize("NFC"), salt, length, { ...options, maxmem }, (error, key) =>
      resume(error ? Effect.die(error) : Effect.succeed(key)))
  })

const parse = (hash: string) => {
  const [scheme, N, r, p, salt, key] = hash.split("$")
  if (scheme !== "scrypt" || key === undefined) return undefined
  return {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, "base64"),
    key: Buffer.from(key, "base64")
  }
}

/** The hasher at a cost of 2^`cost` (log2 of scrypt's N, at least 14). */
export const layerWithCost = (cost: number) => {
  const target = { N: 2 ** cost, r: 8, p: 1 }
  return Layer.succeed(
    PasswordHasher,
    PasswordHasher.of({
      hash: (password) =>
        Effect.gen(function*() {
          const salt = randomBytes(16)
          const key = yield* derive(password, salt, target, keyLength)
          return ["scrypt", target.N, target.r, target.p, salt.toString("base64"), key.toString("base64")].join("$")
        }),
      verify: (password, hash) =>
        Effect.gen(function*() {
          const stored = parse(hash)
          if (stored === undefined) return false
          const actual = yield* derive(password, stored.salt, stored, stored.key.length)
          return timingSafeEqual(actual, stored.key)
        }),
      needsRehash: (hash) => {
        const stored = parse(hash)
        return stored === undefined || stored.N < target.N || stored.r < target.r || stored.p < target.p
      }
    })
  )
}

export const layer = layerWithCost(defaultCost)
