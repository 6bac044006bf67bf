/**
 * Passwords as salted scrypt hashes (`scrypt$N$r$p$salt$key`, base64 parts), computed on
 * libuv's thread pool so a login never blocks the server.
 */
import { PasswordHasher } from "@wms/core"
import { Effect, Layer } from "effect"
import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from "node:crypto"

const cost = { N: 16384, r: 8, p: 1 } as const
const keyLength = 32

const derive = (password: string, salt: Buffer, options: ScryptOptions, length: number) =>
  Effect.async<Buffer>((resume) => {
    scrypt(password.normalize("NFC"), salt, length, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      resume(error ? Effect.die(error) : Effect.succeed(key)))
  })

export const layer = Layer.succeed(
  PasswordHasher,
  PasswordHasher.of({
    hash: (password) =>
      Effect.gen(function*() {
        const salt = randomBytes(16)
        const key = yield* derive(password, salt, cost, keyLength)
        return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$")
      }),
    verify: (password, hash) =>
      Effect.gen(function*() {
        const [scheme, N, r, p, salt, key] = hash.split("$")
        if (scheme !== "scrypt" || key === undefined) return false
        const expected = Buffer.from(key, "base64")
        const actual = yield* derive(password, Buffer.from(salt, "base64"), {
          N: Number(N),
          r: Number(r),
          p: Number(p)
        }, expected.length)
        return timingSafeEqual(actual, expected)
      })
  })
)
