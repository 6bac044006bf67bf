import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"

const unique = (prefix: string) => `${prefix}-${globalThis.crypto.randomUUID().slice(0, 8)}`

const password = "tenant-password"

const invalidSite = { message: "Invalid site" }
const adminRequired = { message: "Admin rights required" }

/**
 * Two fulfillment sites A (clients A1, A2) and B (client B1), a plain site P, and users: one of
 * site A, one bound to client A1, one of site P, and an admin whose home is site B.
 */
const fixture = Effect.gen(function*() {
  const api = yield* Api
  const admin = yield* api.login()
  const ids = {
    a: unique("A"),
    a1: unique("A1"),
    a2: unique("A2"),
    b: unique("B"),
    b1: unique("B1"),
    p: unique("P")
  }
  const post = (path: string, site: string, body: unknown) =>
    Effect.map(api.request("POST", path, { token: admin, site, body }), (response) => {
      assert.strictEqual(response.status, 204, `${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`)
    })
  yield* post("/sites", "main", { site_id: ids.a, name: "A", fulfillment: true })
  yield* post("/sites", "main", { site_id: ids.b, name: "B", fulfillment: true })
  yield* post("/sites", "main", { site_id: ids.p, name: "P" })
  yield* post("/clients", ids.a, { client_id: ids.a1, name: "A1" })
  yield* post("/clients", ids.a, { client_id: ids.a2, name: "A2" })
  yield* post("/clients", ids.b, { client_id: ids.b1, name: "B1" })
  const user = (site: string, options: { client?: string; admin?: boolean } = {}) =>
    Effect.gen(function*() {
      const email = `${unique("t")}@example.com`
      yield* post("/users", "main", { email, password, name: "T", site, ...options })
      return yield* api.login(email, password)
    })
  return {
    ...ids,
    admin,
    siteUserA: yield* user(ids.a),
    clientUserA1: yield* user(ids.a, { client: ids.a1 }),
    siteUserP: yield* user(ids.p),
    adminOfB: yield* user(ids.b, { admin: true })
  }
})

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`tenancy over HTTP on ${label}`, (it) => {
    it.effect("a missing site header gets 403 Missing header site; an unknown one 403 Invalid site", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const endpoints = [["GET", "/sites"], ["GET", "/clients"], ["GET", "/users"], ["POST", "/sites"]] as const
        for (const [method, path] of endpoints) {
          const missing = yield* api.request(method, path, { token, body: method === "POST" ? {} : undefined })
          assert.deepStrictEqual([path, missing.status, missing.body], [path, 403, { message: "Missing header site" }])
          const blank = yield* api.request(method, path, { token, site: "  " })
          assert.deepStrictEqual([path, blank.status, blank.body], [path, 403, { message: "Missing header site" }])
          for (const site of ["nowhere", "MAIN", "%"]) {
            const unknown = yield* api.request(method, path, { token, site, body: method === "POST" ? {} : undefined })
            assert.deepStrictEqual([path, site, unknown.status, unknown.body], [path, site, 403, invalidSite])
          }
        }
      }))

    it.effect("a user who is not an admin may use only its home site", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const f = yield* fixture
        const outcome = (token: string, site: string) =>
          Effect.map(
            api.request("GET", "/clients", { token, site }),
            (response) => [site, response.status, response.body]
          )
        assert.deepStrictEqual(yield* outcome(f.siteUserA, f.a), [f.a, 403, adminRequired])
        for (const site of [f.b, f.p, "main", f.b1]) {
          assert.deepStrictEqual(yield* outcome(f.siteUserA, site), [site, 403, invalidSite])
        }
        assert.deepStrictEqual(yield* outcome(f.siteUserP, f.p), [f.p, 403, adminRequired])
        for (const site of [f.a, f.a1, "main", f.b]) {
          assert.deepStrictEqual(yield* outcome(f.siteUserP, site), [site, 403, invalidSite])
        }
      }))

    it.effect("a site user may use a client of its home site", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const f = yield* fixture
        for (const site of [f.a1, f.a2]) {
          const response = yield* api.request("GET", "/users", { token: f.siteUserA, site })
          assert.deepStrictEqual([site, response.status, response.body], [site, 403, adminRequired])
        }
      }))

    it.effect("a user bound to a client may use only that client, not its site nor another client", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const f = yield* fixture
        const own = yield* api.request("GET", "/sites", { token: f.clientUserA1, site: f.a1 })
        assert.deepStrictEqual([own.status, own.body], [403, adminRequired])
        for (const site of [f.a, f.a2, f.b, f.b1, f.p, "main"]) {
          const response = yield* api.request("GET", "/sites", { token: f.clientUserA1, site })
          assert.deepStrictEqual([site, response.status, response.body], [site, 403, invalidSite])
        }
      }))

    it.effect("an admin may use any site and any client, wherever its home is", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const f = yield* fixture
        for (const token of [f.admin, f.adminOfB]) {
          for (const site of [f.a, f.a1, f.a2, f.b, f.b1, f.p, "main"]) {
            const response = yield* api.request("GET", "/sites", { token, site })
            assert.deepStrictEqual([site, response.status], [site, 200])
          }
          const clientsOfA = yield* api.request("GET", "/clients", { token, site: f.a })
          assert.sameMembers(clientsOfA.body.map((client: { client_id: string }) => client.client_id), [f.a1, f.a2])
          const unknown = yield* api.request("GET", "/sites", { token, site: unique("none") })
          assert.deepStrictEqual([unknown.status, unknown.body], [403, invalidSite])
        }
        const created = yield* api.request("POST", "/clients", {
          token: f.adminOfB,
          site: f.a,
          body: { client_id: unique("A3"), name: "A3" }
        })
        assert.strictEqual(created.status, 204)
      }))

    it.effect("the scope of an admin is the site its header names, not its home site", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const f = yield* fixture
        const usersOfA = yield* api.request("GET", "/users", { token: f.adminOfB, site: f.a1 })
        assert.strictEqual(usersOfA.status, 200)
        assert.isTrue(usersOfA.body.length === 2)
        assert.isTrue(usersOfA.body.every((user: { site: string }) => user.site === f.a))
        const clientsOfB = yield* api.request("GET", "/clients", { token: f.admin, site: f.b1 })
        assert.deepStrictEqual(clientsOfB.body.map((client: { site_id: string }) => client.site_id), [f.b])
      }))

    it.effect("checks run token (401), then site (403), then body (400), then conflicts (409)", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const f = yield* fixture
        const body = (value: unknown) => ({ rawBody: JSON.stringify(value) })
        const taken = { site_id: f.a, name: "Taken" }
        const outcomes = [
          [{ ...body({ site_id: f.a }), site: "nowhere" }, 401, "Missing authorization token"],
          [{ ...body({ site_id: f.a }), site: "nowhere", token: "not-a-jwt" }, 401, "Authorization token not valid"],
          [{ ...body({ site_id: f.a }), token: f.admin }, 403, "Missing header site"],
          [{ ...body({ site_id: f.a }), site: "nowhere", token: f.admin }, 403, "Invalid site"],
          [{ ...body({ site_id: f.a }), site: f.b, token: f.siteUserA }, 403, "Invalid site"],
          [{ ...body({ site_id: f.a }), site: f.a, token: f.admin }, 400, "Missing field name"],
          [{ ...body(taken), site: f.a, token: f.admin }, 409, undefined]
        ] as const
        for (const [options, status, message] of outcomes) {
          const response = yield* api.request("POST", "/sites", options)
          assert.strictEqual(response.status, status, JSON.stringify(options))
          assert.deepStrictEqual(Object.keys(response.body), ["message"])
          if (message !== undefined) assert.strictEqual(response.body.message, message)
        }
      }))
  })
}
