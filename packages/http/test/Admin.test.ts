import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"

const unique = (prefix: string) => `${prefix}-${globalThis.crypto.randomUUID().slice(0, 8)}`

const isMessage = (body: unknown) =>
  typeof body === "object" && body !== null && Object.keys(body).length === 1 &&
  typeof (body as { message?: unknown }).message === "string"

const password = "a-password-of-length"

/** Creates a site (and its clients) as the bootstrap admin; fails the test on any other status. */
const createSite = (token: string, site: { site_id: string; fulfillment?: boolean }, clients: Array<string> = []) =>
  Effect.gen(function*() {
    const api = yield* Api
    const created = yield* api.request("POST", "/sites", {
      token,
      site: "main",
      body: { site_id: site.site_id, name: `Site ${site.site_id}`, fulfillment: site.fulfillment ?? false }
    })
    assert.strictEqual(created.status, 204, JSON.stringify(created.body))
    for (const client_id of clients) {
      const added = yield* api.request("POST", "/clients", {
        token,
        site: site.site_id,
        body: { client_id, name: `Client ${client_id}` }
      })
      assert.strictEqual(added.status, 204, JSON.stringify(added.body))
    }
  })

const createUser = (token: string, user: { email: string; site: string; client?: string; admin?: boolean }) =>
  Effect.gen(function*() {
    const api = yield* Api
    const created = yield* api.request("POST", "/users", {
      token,
      site: "main",
      body: { password, name: `User ${user.email}`, ...user }
    })
    assert.strictEqual(created.status, 204, JSON.stringify(created.body))
  })

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`administration on ${label}`, (it) => {
    it.effect("POST /sites creates a site that GET /sites lists; 204 with no body", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const plain = unique("plain")
        const fulfillment = unique("ff")
        const created = yield* api.request("POST", "/sites", {
          token,
          site: "main",
          body: { site_id: plain, name: "Plain" }
        })
        assert.deepStrictEqual([created.status, created.body], [204, undefined])
        yield* createSite(token, { site_id: fulfillment, fulfillment: true })
        const listed = yield* api.request("GET", "/sites", { token, site: "main" })
        assert.strictEqual(listed.status, 200)
        const byId = new Map(listed.body.map((site: { site_id: string }) => [site.site_id, site]))
        assert.deepStrictEqual(byId.get("main"), { site_id: "main", name: "main", fulfillment: false })
        assert.deepStrictEqual(byId.get(plain), { site_id: plain, name: "Plain", fulfillment: false })
        assert.deepStrictEqual(byId.get(fulfillment), {
          site_id: fulfillment,
          name: `Site ${fulfillment}`,
          fulfillment: true
        })
      }))

    it.effect("POST /clients adds a client to the site of the header; GET /clients lists only that site's", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const [a, b] = [unique("fa"), unique("fb")]
        const [a1, a2, b1] = [unique("a1"), unique("a2"), unique("b1")]
        yield* createSite(token, { site_id: a, fulfillment: true }, [a2, a1])
        yield* createSite(token, { site_id: b, fulfillment: true }, [b1])
        const listedA = yield* api.request("GET", "/clients", { token, site: a })
        assert.strictEqual(listedA.status, 200)
        assert.sameDeepMembers(listedA.body, [
          { client_id: a1, site_id: a, name: `Client ${a1}` },
          { client_id: a2, site_id: a, name: `Client ${a2}` }
        ])
        const listedB = yield* api.request("GET", "/clients", { token, site: b })
        assert.deepStrictEqual(listedB.body, [{ client_id: b1, site_id: b, name: `Client ${b1}` }])
        const listedMain = yield* api.request("GET", "/clients", { token, site: "main" })
        assert.deepStrictEqual([listedMain.status, listedMain.body], [200, []])
      }))

    it.effect("POST /users creates users that GET /users lists per site, never with a password", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const [site, other, client] = [unique("us"), unique("uo"), unique("uc")]
        yield* createSite(token, { site_id: site, fulfillment: true }, [client])
        yield* createSite(token, { site_id: other })
        const plain = `${unique("p")}@example.com`
        const bound = `${unique("b")}@example.com`
        const elsewhere = `${unique("e")}@x.y`
        yield* createUser(token, { email: plain, site })
        yield* createUser(token, { email: bound, site, client, admin: true })
        yield* createUser(token, { email: elsewhere, site: other })
        const listed = yield* api.request("GET", "/users", { token, site })
        assert.strictEqual(listed.status, 200)
        assert.strictEqual(listed.body.length, 2)
        for (const user of listed.body) {
          assert.deepStrictEqual(Object.keys(user).sort(), [
            "active",
            "admin",
            "client",
            "email",
            "name",
            "site",
            "userId"
          ])
          assert.isString(user.userId)
        }
        const withoutIds = listed.body.map(({ userId: _, ...user }: { userId: string }) => user)
        assert.sameDeepMembers(withoutIds, [
          { email: plain, name: `User ${plain}`, admin: false, site, client: null, active: true },
          { email: bound, name: `User ${bound}`, admin: true, site, client, active: true }
        ])
        const otherUsers = yield* api.request("GET", "/users", { token, site: other })
        const all = JSON.stringify(listed.body) + JSON.stringify(otherUsers.body)
        assert.notInclude(all, password)
        assert.notInclude(all, "scrypt")
        assert.deepStrictEqual(otherUsers.body.map((user: { email: string }) => user.email), [elsewhere])
      }))

    it.effect("the store keeps a salted hash, never the password", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const sql = yield* SqlClient.SqlClient
        const token = yield* api.login()
        const emails = [`${unique("h1")}@example.com`, `${unique("h2")}@example.com`]
        for (const email of emails) yield* createUser(token, { email, site: "main" })
        const rows = yield* sql<{ email: string; password_hash: string }>`
          SELECT email, password_hash FROM users WHERE email IN (${emails[0]}, ${emails[1]})`
        assert.strictEqual(rows.length, 2)
        for (const row of rows) {
          assert.notInclude(row.password_hash, password)
          assert.notInclude(row.password_hash, Buffer.from(password).toString("base64"))
          assert.match(row.password_hash, /^scrypt\$/)
        }
        assert.notStrictEqual(rows[0].password_hash, rows[1].password_hash)
        for (const email of emails) assert.isString(yield* api.login(email, password))
      }).pipe(Effect.orDie))

    it.effect("a created user logs in with its site, client and fulfillment", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const [ff, plain, client] = [unique("lf"), unique("lp"), unique("lc")]
        yield* createSite(token, { site_id: ff, fulfillment: true }, [client])
        yield* createSite(token, { site_id: plain })
        const cases = [
          { email: `${unique("Client")}@Example.com`, site: ff, client, expect: { client, fulfillment: true } },
          { email: `${unique("site")}@example.com`, site: ff, expect: { client: null, fulfillment: true } },
          { email: `${unique("plain")}@example.com`, site: plain, expect: { client: null, fulfillment: false } }
        ]
        for (const { expect, ...user } of cases) {
          yield* createUser(token, user)
          const login = yield* api.request("POST", "/login", { body: { email: user.email.toUpperCase(), password } })
          assert.strictEqual(login.status, 200)
          const { token: issued, userId, ...rest } = login.body
          assert.isString(issued)
          assert.isString(userId)
          assert.deepStrictEqual(rest, {
            expiresIn: 3600,
            admin: false,
            site: user.site,
            name: `User ${user.email}`,
            email: user.email.toLowerCase(),
            ...expect
          })
          const verified = yield* api.request("GET", "/verifytoken", { token: issued })
          assert.strictEqual(verified.status, 200)
          const wrong = yield* api.request("POST", "/login", { body: { email: user.email, password: `${password}!` } })
          assert.deepStrictEqual([wrong.status, wrong.body], [401, { message: "User/password not correct" }])
        }
      }))

    it.effect("a user who is not an admin gets 403 Admin rights required on every endpoint", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const adminToken = yield* api.login()
        const ff = unique("nf")
        yield* createSite(adminToken, { site_id: ff, fulfillment: true })
        const email = `${unique("plain")}@example.com`
        yield* createUser(adminToken, { email, site: ff })
        const token = yield* api.login(email, password)
        const calls = [
          ["GET", "/sites", undefined],
          ["POST", "/sites", { site_id: unique("x"), name: "X" }],
          ["GET", "/clients", undefined],
          ["POST", "/clients", { client_id: unique("x"), name: "X" }],
          ["GET", "/users", undefined],
          ["POST", "/users", { email: `${unique("x")}@example.com`, password, name: "X", site: ff }]
        ] as const
        for (const [method, path, body] of calls) {
          const response = yield* api.request(method, path, { token, site: ff, body })
          assert.deepStrictEqual([method, path, response.status, response.body], [method, path, 403, {
            message: "Admin rights required"
          }])
        }
        // Admin rights are checked before the body is read, like the site header.
        const invalidBody = yield* api.request("POST", "/sites", { token, site: ff, rawBody: "{not json" })
        assert.deepStrictEqual([invalidBody.status, invalidBody.body], [403, { message: "Admin rights required" }])
        const sites = yield* api.request("GET", "/sites", { token: adminToken, site: "main" })
        assert.isFalse(sites.body.some((site: { name: string }) => site.name === "X"))
        const clients = yield* api.request("GET", "/clients", { token: adminToken, site: ff })
        assert.deepStrictEqual(clients.body, [])
        const users = yield* api.request("GET", "/users", { token: adminToken, site: ff })
        assert.deepStrictEqual(users.body.map((user: { email: string }) => user.email), [email])
      }))

    it.effect("an id already taken by a site or a client gets 409, and nothing changes", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const [a, b, client] = [unique("da"), unique("db"), unique("dc")]
        yield* createSite(token, { site_id: a, fulfillment: true }, [client])
        yield* createSite(token, { site_id: b, fulfillment: true })
        const attempts = [
          ["/sites", "main", { site_id: a, name: "Again" }],
          ["/sites", "main", { site_id: client, name: "Site named like a client" }],
          ["/clients", a, { client_id: client, name: "Again" }],
          ["/clients", b, { client_id: client, name: "Same id on another site" }],
          ["/clients", b, { client_id: a, name: "Client named like a site" }],
          ["/clients", b, { client_id: "main", name: "Client named like the first site" }]
        ] as const
        for (const [path, site, body] of attempts) {
          const response = yield* api.request("POST", path, { token, site, body })
          assert.strictEqual(response.status, 409, `${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`)
          assert.isTrue(isMessage(response.body))
        }
        const sites = yield* api.request("GET", "/sites", { token, site: "main" })
        const ids = sites.body.map((site: { site_id: string }) => site.site_id)
        assert.include(ids, a)
        assert.notInclude(ids, client)
        assert.deepStrictEqual(
          sites.body.find((site: { site_id: string }) => site.site_id === a),
          { site_id: a, name: `Site ${a}`, fulfillment: true }
        )
        assert.deepStrictEqual((yield* api.request("GET", "/clients", { token, site: a })).body, [
          { client_id: client, site_id: a, name: `Client ${client}` }
        ])
        assert.deepStrictEqual((yield* api.request("GET", "/clients", { token, site: b })).body, [])
      }))

    it.effect("an e-mail address already taken, in any case, gets 409", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const local = unique("dup")
        yield* createUser(token, { email: `${local}@example.com`, site: "main" })
        for (const email of [`${local}@example.com`, `${local.toUpperCase()}@EXAMPLE.com`, "ADMIN@Example.COM"]) {
          const response = yield* api.request("POST", "/users", {
            token,
            site: "main",
            body: { email, password: "another-password", name: "Copy", site: "main" }
          })
          assert.strictEqual(response.status, 409, `${email}: ${JSON.stringify(response.body)}`)
          assert.isTrue(isMessage(response.body))
        }
        const users = yield* api.request("GET", "/users", { token, site: "main" })
        assert.isFalse(users.body.some((user: { name: string }) => user.name === "Copy"))
        assert.isString(yield* api.login(`${local}@example.com`, password))
        assert.isString(yield* api.login())
      }))

    it.effect("POST /clients on a site that is not a fulfillment site gets 409", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const plain = unique("np")
        const client = unique("nc")
        yield* createSite(token, { site_id: plain })
        for (const site of [plain, "main"]) {
          const body = { client_id: client, name: "C" }
          const response = yield* api.request("POST", "/clients", { token, site, body })
          assert.strictEqual(response.status, 409)
          assert.isTrue(isMessage(response.body))
        }
        assert.deepStrictEqual((yield* api.request("GET", "/clients", { token, site: plain })).body, [])
        const asHeader = yield* api.request("GET", "/sites", { token, site: client })
        assert.deepStrictEqual([asHeader.status, asHeader.body], [403, { message: "Invalid site" }])
      }))

    it.effect("POST /users with an unknown site, or a client not of that site, gets 400 naming the field", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const [a, b, clientOfB] = [unique("ua"), unique("ub"), unique("ubc")]
        yield* createSite(token, { site_id: a, fulfillment: true })
        yield* createSite(token, { site_id: b, fulfillment: true }, [clientOfB])
        const cases = [
          ["site", { site: unique("nowhere") }],
          ["client", { site: a, client: clientOfB }],
          ["client", { site: a, client: unique("nobody") }],
          ["client", { site: a, client: b }]
        ] as const
        for (const [field, where] of cases) {
          const email = `${unique("u")}@example.com`
          const response = yield* api.request("POST", "/users", {
            token,
            site: "main",
            body: { email, password, name: "U", ...where }
          })
          assert.strictEqual(response.status, 400, JSON.stringify(where))
          assert.isTrue(isMessage(response.body))
          assert.match(response.body.message, new RegExp(`\\b${field}\\b`))
          const login = yield* api.request("POST", "/login", { body: { email, password } })
          assert.strictEqual(login.status, 401)
        }
      }))

    it.effect("an invalid body gets 400 with a message that names the field", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const ff = unique("vf")
        yield* createSite(token, { site_id: ff, fulfillment: true })
        const user = { email: `${unique("v")}@example.com`, password, name: "V", site: "main" }
        const cases = [
          ["/sites", "main", { site_id: unique("v") }, /^Missing field name$/],
          ["/sites", "main", { name: "No id" }, /^Missing field site_id$/],
          ["/sites", "main", { site_id: unique("v"), name: "V", fulfillment: "yes" }, /^Invalid field fulfillment: /],
          ["/sites", "main", { site_id: 12, name: "V" }, /^Invalid field site_id: /],
          ["/sites", "main", { site_id: "", name: "V" }, /^Invalid field site_id: /],
          ["/clients", ff, { name: "No id" }, /^Missing field client_id$/],
          ["/clients", ff, { client_id: unique("v") }, /^Missing field name$/],
          ["/users", "main", { ...user, email: undefined }, /^Missing field email$/],
          ["/users", "main", { ...user, email: "not an address" }, /^Invalid field email: /],
          ["/users", "main", { ...user, password: "short" }, /^Invalid field password: /],
          ["/users", "main", { ...user, admin: "yes" }, /^Invalid field admin: /],
          ["/users", "main", { ...user, site: undefined }, /^Missing field site$/],
          ["/users", "main", { ...user, client: 5 }, /^Invalid field client: /]
        ] as const
        for (const [path, site, body, message] of cases) {
          const response = yield* api.request("POST", path, { token, site, body })
          assert.strictEqual(response.status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`)
          assert.isTrue(isMessage(response.body), JSON.stringify(response.body))
          assert.match(response.body.message, message)
        }
        const sites = yield* api.request("GET", "/sites", { token, site: "main" })
        assert.isFalse(sites.body.some((site: { name: string }) => site.name === "V" || site.name === "No id"))
        assert.deepStrictEqual((yield* api.request("GET", "/clients", { token, site: ff })).body, [])
      }))

    it.effect("unknown fields are ignored and a missing fulfillment means false", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const site = unique("ig")
        const created = yield* api.request("POST", "/sites", {
          token,
          site: "main",
          body: { site_id: site, name: "Ignored", colour: "red" }
        })
        assert.strictEqual(created.status, 204)
        const sites = yield* api.request("GET", "/sites", { token, site: "main" })
        assert.deepStrictEqual(
          sites.body.find((s: { site_id: string }) => s.site_id === site),
          { site_id: site, name: "Ignored", fulfillment: false }
        )
      }))
  })
}
