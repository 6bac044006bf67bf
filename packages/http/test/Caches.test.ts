import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SignJWT } from "jose"
import { Api, jwtSecret, serverOnApiTestStores } from "../../../testing/server.js"

const unique = (prefix: string) => `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`

// The real clock: inside `layer(…)` the test's own clock is a TestClock.
const sleepUntil = (epochMillis: number) =>
  Effect.promise(() => new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMillis - Date.now()))))

const adminToken = (sub: string, exp: number) =>
  Effect.promise(() =>
    new SignJWT({ admin: true, site: "main", client: null })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(jwtSecret))
  )

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`caches of the request path on ${label}`, (it) => {
    it.effect("a token accepted while valid is refused once it expires", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const userId = yield* api.adminUserId
        // Read after the login, whose password hash takes a while on a busy machine.
        const exp = Math.floor(Date.now() / 1000) + 2
        const token = yield* adminToken(userId, exp)
        const before = yield* api.request("GET", "/orders", { token, site: "main" })
        assert.strictEqual(before.status, 200)
        yield* sleepUntil(exp * 1000 + 50)
        for (let i = 0; i < 2; i++) {
          const after = yield* api.request("GET", "/orders", { token, site: "main" })
          assert.deepStrictEqual([after.status, after.body], [401, { message: "Authorization token not valid" }])
        }
      }))

    it.effect("a site header that named nothing is found once the site or client exists", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const siteId = unique("later")
        const missing = yield* api.request("GET", "/orders", { token, site: siteId })
        assert.deepStrictEqual([missing.status, missing.body], [403, { message: "Invalid site" }])
        const created = yield* api.request("POST", "/sites", {
          token,
          site: "main",
          body: { site_id: siteId, name: "Later", fulfillment: true }
        })
        assert.strictEqual(created.status, 204)
        const found = yield* api.request("GET", "/orders", { token, site: siteId })
        assert.deepStrictEqual([found.status, found.body], [200, []])

        const clientId = unique("later_client")
        const missingClient = yield* api.request("GET", "/orders", { token, site: clientId })
        assert.deepStrictEqual([missingClient.status, missingClient.body], [403, { message: "Invalid site" }])
        const createdClient = yield* api.request("POST", "/clients", {
          token,
          site: siteId,
          body: { client_id: clientId, name: "Later client" }
        })
        assert.strictEqual(createdClient.status, 204)
        const foundClient = yield* api.request("GET", "/orders", { token, site: clientId })
        assert.deepStrictEqual([foundClient.status, foundClient.body], [200, []])
      }))

    it.effect("a cached site header keeps its scope: a client sees only its own orders", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const siteId = unique("scoped")
        const [a, b] = [unique("client_a"), unique("client_b")]
        const post = (site: string, path: string, body: unknown) =>
          Effect.map(api.request("POST", path, { token, site, body }), (response) => response.status)
        const orderIds = (site: string) =>
          Effect.map(api.request("GET", "/orders", { token, site }), (response) =>
            response.body.map((order: { order_id: string }) => order.order_id))
        assert.strictEqual(yield* post("main", "/sites", { site_id: siteId, name: "S", fulfillment: true }), 204)
        for (const clientId of [a, b]) {
          assert.strictEqual(yield* post(siteId, "/clients", { client_id: clientId, name: clientId }), 204)
          assert.strictEqual(yield* post(clientId, "/orders", { order_id: `order-of-${clientId}` }), 204)
        }
        for (let i = 0; i < 2; i++) {
          assert.deepStrictEqual(yield* orderIds(a), [`order-of-${a}`])
          assert.deepStrictEqual(yield* orderIds(b), [`order-of-${b}`])
          assert.deepStrictEqual(yield* orderIds(siteId), [`order-of-${a}`, `order-of-${b}`])
        }
      }))
  })
}
