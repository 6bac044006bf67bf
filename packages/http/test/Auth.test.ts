import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SignJWT } from "jose"
import { Api, jwtSecret, serverOnApiTestStores } from "../../../testing/server.js"

const sign = (
  claims: Record<string, unknown>,
  options: { key?: string; exp?: number; alg?: string; sub?: string } = {}
) =>
  Effect.promise(() => {
    const now = Math.floor(Date.now() / 1000)
    return new SignJWT(claims)
      .setProtectedHeader({ alg: options.alg ?? "HS256" })
      .setSubject(options.sub ?? "someone")
      .setIssuedAt(now - 7200)
      .setExpirationTime(options.exp ?? now + 3600)
      .sign(new TextEncoder().encode(options.key ?? jwtSecret))
  })

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`authentication on ${label}`, (it) => {
    it.effect("POST /login returns the login result of §2.1", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const response = yield* api.request("POST", "/login", {
          body: { email: "Admin@Example.com", password: "admin-password" }
        })
        assert.strictEqual(response.status, 200)
        const { token, ...rest } = response.body
        assert.isString(token)
        assert.isString(rest.userId)
        assert.deepStrictEqual({ ...rest, userId: "" }, {
          userId: "",
          expiresIn: 3600,
          admin: true,
          site: "main",
          name: "Administrator",
          email: "admin@example.com",
          client: null,
          fulfillment: false
        })
        const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString())
        assert.strictEqual(payload.sub, rest.userId)
        assert.strictEqual(payload.exp - payload.iat, 3600)
        assert.strictEqual(JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString()).alg, "HS256")
      }))

    it.effect("wrong credentials get 401 User/password not correct", () =>
      Effect.gen(function*() {
        const api = yield* Api
        for (
          const body of [{ email: "admin@example.com", password: "wrong" }, { email: "nobody@x.y", password: "x" }]
        ) {
          const response = yield* api.request("POST", "/login", { body })
          assert.strictEqual(response.status, 401)
          assert.deepStrictEqual(response.body, { message: "User/password not correct" })
        }
      }))

    it.effect("a login body without a password gets 400 naming it", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const response = yield* api.request("POST", "/login", { body: { email: "admin@example.com" } })
        assert.strictEqual(response.status, 400)
        assert.deepStrictEqual(response.body, { message: "Missing field password" })
      }))

    it.effect("GET /verifytoken: 200 with a valid token, 401 otherwise", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const valid = yield* api.request("GET", "/verifytoken", { token })
        assert.strictEqual(valid.status, 200)
        assert.isString(valid.body.message)
        const missing = yield* api.request("GET", "/verifytoken")
        assert.deepStrictEqual([missing.status, missing.body], [401, { message: "Missing authorization token" }])
        const invalid = yield* api.request("GET", "/verifytoken", { token: `${token}x` })
        assert.deepStrictEqual([invalid.status, invalid.body], [401, { message: "Authorization token not valid" }])
      }))

    it.effect("expired, foreign-key, unsigned, malformed and unknown users' tokens are not valid", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const sub = yield* api.adminUserId
        const claims = { admin: true, site: "main", client: null }
        const expired = yield* sign(claims, { exp: Math.floor(Date.now() / 1000) - 60, sub })
        const foreign = yield* sign(claims, { key: "another-secret-of-at-least-32-bytes", sub })
        const unknownUser = yield* sign(claims)
        const header = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")
        const body = Buffer.from(JSON.stringify({ ...claims, sub: "x", exp: 9999999999 })).toString("base64url")
        for (const token of [expired, foreign, unknownUser, `${header}.${body}.`, "not-a-jwt"]) {
          const response = yield* api.request("GET", "/sites", { token, site: "main" })
          assert.deepStrictEqual([response.status, response.body], [401, { message: "Authorization token not valid" }])
        }
        const fresh = yield* sign(claims, { sub })
        assert.strictEqual((yield* api.request("GET", "/sites", { token: fresh, site: "main" })).status, 200)
      }))

    it.effect("Authorization is Bearer in any case, whitespace and the token; any other header carries no token", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        // The hot routes' front, the HttpApi's bearer security and the token-only check.
        const requests = [
          ["GET", "/orders"],
          ["GET", "/orders/NONE"],
          ["POST", "/orders"],
          ["GET", "/customers"],
          ["GET", "/verifytoken"]
        ] as const
        const call = (method: "GET" | "POST", path: string, authorization: string) =>
          api.request(method, path, {
            headers: { authorization },
            site: "main",
            body: method === "POST" ? {} : undefined
          })
        const noBearer = [
          `Basic12${token}`,
          `xBearer ${token}`,
          `Bearer,${token}`,
          `Bearer${token}`,
          `Basic ${token}`,
          token,
          "Bearer"
        ]
        const shown = (authorization: string) => authorization.replace(token, "<token>")
        for (const [method, path] of requests) {
          for (const authorization of noBearer) {
            const response = yield* call(method, path, authorization)
            assert.deepStrictEqual(
              [response.status, response.body],
              [401, { message: "Missing authorization token" }],
              `${method} ${path} with ${shown(authorization)}`
            )
          }
          for (const authorization of [`bearer ${token}`, `BEARER\t${token}`, `Bearer    ${token}`]) {
            const response = yield* call(method, path, authorization)
            assert.notStrictEqual(response.status, 401, `${method} ${path} with ${shown(authorization)}`)
          }
          const invalid = yield* call(method, path, `Bearer ${token}x`)
          assert.deepStrictEqual([invalid.status, invalid.body], [401, { message: "Authorization token not valid" }])
        }
      }))

    it.effect("the token is checked before the site header, the site header before the body", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const noToken = yield* api.request("POST", "/sites", { rawBody: "{not json" })
        assert.deepStrictEqual([noToken.status, noToken.body], [401, { message: "Missing authorization token" }])
        const noSite = yield* api.request("POST", "/sites", { token, rawBody: "{not json" })
        assert.deepStrictEqual([noSite.status, noSite.body], [403, { message: "Missing header site" }])
        const badSite = yield* api.request("POST", "/sites", { token, site: "elsewhere", rawBody: "{not json" })
        assert.deepStrictEqual([badSite.status, badSite.body], [403, { message: "Invalid site" }])
        const badBody = yield* api.request("POST", "/sites", { token, site: "main", rawBody: "{not json" })
        assert.deepStrictEqual([badBody.status, badBody.body], [400, { message: "Request body is not valid JSON" }])
      }))
  })
}
