/**
 * Who may keep acting: tokens end with their user's disabling, deletion or change; logins are
 * throttled; passwords are hashed at OWASP's cost and upgraded at login.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Administration, PasswordHasher, systemActor } from "@wms/core"
import { NodePasswordHasher } from "@wms/http"
import { Effect } from "effect"
import { onApiTestStores } from "../../../testing/databases.js"
import { adminEmail, adminPassword, Api, serverOnApiTestStores, testServer } from "../../../testing/server.js"
import { callerFor, expect204, expectError, expectStatus, unique } from "../../../testing/world.js"

const tokenEnded = "Authorization token not valid"

/** A new user of site main through the API; yields its userId, e-mail and a token of its own. */
const newUser = (admin: string, fields: { readonly admin?: boolean } = {}) =>
  Effect.gen(function*() {
    const api = yield* Api
    const email = `${unique("user")}@example.com`
    const main = yield* callerFor(admin, "main")
    expect204(yield* main.post("/users", { email, password: "first-password", name: "U", site: "main", ...fields }))
    const users = yield* main.get("/users")
    const userId = users.body.find((user: { email: string }) => user.email === email).userId as string
    return { userId, email, token: yield* api.login(email, "first-password") }
  })

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`sessions on ${label}`, (it) => {
    it.effect("disabling a user ends its tokens and its logins; enabling lets it log in again", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const admin = callerFor(yield* api.login(), "main")
        const user = yield* newUser(yield* api.login())
        expectStatus(yield* api.request("GET", "/orders", { token: user.token, site: "main" }), 200)
        expect204(yield* (yield* admin).put(`/users/${user.userId}`, { active: false }))
        expectError(yield* api.request("GET", "/orders", { token: user.token, site: "main" }), 401, tokenEnded)
        expectError(yield* api.request("GET", "/verifytoken", { token: user.token }), 401, tokenEnded)
        const refused = yield* api.request("POST", "/login", {
          body: { email: user.email, password: "first-password" }
        })
        expectError(refused, 401, "User/password not correct")
        const listed = (yield* (yield* admin).get("/users")).body.find((u: { userId: string }) =>
          u.userId === user.userId
        )
        assert.strictEqual(listed.active, false)
        expect204(yield* (yield* admin).put(`/users/${user.userId}`, { active: true }))
        expectStatus(
          yield* api.request("POST", "/login", { body: { email: user.email, password: "first-password" } }),
          200
        )
      }))

    it.effect("changing or deleting a user ends its tokens; an unknown user is a 404", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const admin = yield* callerFor(yield* api.login(), "main")
        const user = yield* newUser(yield* api.login())
        expect204(yield* admin.put(`/users/${user.userId}`, { admin: true, name: "Promoted" }))
        expectError(yield* api.request("GET", "/orders", { token: user.token, site: "main" }), 401, tokenEnded)
        const promoted = yield* api.login(user.email, "first-password")
        expectStatus(yield* api.request("GET", "/sites", { token: promoted, site: "main" }), 200)
        expect204(yield* admin.del(`/users/${user.userId}`))
        expectError(yield* api.request("GET", "/orders", { token: promoted, site: "main" }), 401, tokenEnded)
        expectError(yield* admin.put(`/users/${user.userId}`, { name: "X" }), 404, `User ${user.userId} not found`)
        expectError(yield* admin.del(`/users/${user.userId}`), 404, `User ${user.userId} not found`)
      }))

    it.effect("the last active admin can be neither disabled, demoted nor deleted", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const admin = yield* callerFor(yield* api.login(), "main")
        const users = (yield* admin.get("/users")).body as Array<
          { userId: string; email: string; admin: boolean; active: boolean }
        >
        const admins = users.filter((u) => u.admin && u.active)
        // Other tests of this file may have promoted users: leave exactly the bootstrap admin.
        const me = users.find((u) => u.email === adminEmail)!
        for (const other of admins.filter((u) => u.userId !== me.userId)) {
          expect204(yield* admin.put(`/users/${other.userId}`, { admin: false }))
        }
        const last = `User ${me.userId} is the last active admin`
        expectError(yield* admin.put(`/users/${me.userId}`, { active: false }), 409, last)
        expectError(yield* admin.put(`/users/${me.userId}`, { admin: false }), 409, last)
        expectError(yield* admin.del(`/users/${me.userId}`), 409, last)
      }))

    it.effect("of two admins demoted at once, one stays: the other change is a 409", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const administration = yield* Administration
        const admin = yield* callerFor(yield* api.login(), "main")
        const second = yield* newUser(yield* api.login(), { admin: true })
        const users = (yield* admin.get("/users")).body as Array<
          { userId: string; email: string; admin: boolean; active: boolean }
        >
        const first = users.find((u) => u.email === adminEmail)!
        for (
          const other of users.filter((u) =>
            u.admin && u.active && u.userId !== first.userId && u.userId !== second.userId
          )
        ) {
          expect204(yield* admin.put(`/users/${other.userId}`, { admin: false }))
        }
        const system = yield* systemActor("main")
        const outcomes = yield* Effect.all(
          [first.userId, second.userId].map((userId) =>
            Effect.either(administration.updateUser(system, userId, { admin: false }))
          ),
          { concurrency: 2 }
        )
        assert.deepStrictEqual(outcomes.map((outcome) => outcome._tag).sort(), ["Left", "Right"])
        const admins = (yield* administration.listUsers(system)).filter((u) => u.admin && u.active)
        assert.strictEqual(admins.length, 1)
        // Put the bootstrap admin back for the other tests of this file.
        if (admins[0].userId !== first.userId) {
          yield* administration.updateUser(system, first.userId, { admin: true })
        }
      }))

    it.effect("a user changes its own password with the current one; its tokens end", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const user = yield* newUser(yield* api.login())
        const wrong = yield* api.request("POST", "/users/me/password", {
          token: user.token,
          body: { current_password: "not-it", new_password: "second-password" }
        })
        expectError(wrong, 400, "Invalid field current_password: is not correct")
        const short = yield* api.request("POST", "/users/me/password", {
          token: user.token,
          body: { current_password: "first-password", new_password: "short" }
        })
        expectError(short, 400, "Invalid field new_password: must be at least 8 characters")
        expect204(
          yield* api.request("POST", "/users/me/password", {
            token: user.token,
            body: { current_password: "first-password", new_password: "second-password" }
          })
        )
        expectError(yield* api.request("GET", "/verifytoken", { token: user.token }), 401, tokenEnded)
        expectStatus(
          yield* api.request("POST", "/login", { body: { email: user.email, password: "first-password" } }),
          401
        )
        expectStatus(
          yield* api.request("POST", "/login", { body: { email: user.email, password: "second-password" } }),
          200
        )
      }))

    it.effect("failed logins are throttled per e-mail address with 429 and Retry-After; others still log in", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const user = yield* newUser(yield* api.login())
        const attempt = (password: string) =>
          api.request("POST", "/login", { body: { email: user.email.toUpperCase(), password } })
        for (let i = 0; i < 5; i++) expectStatus(yield* attempt("wrong-password"), 401)
        for (const password of ["wrong-password", "first-password"]) {
          const refused = yield* attempt(password)
          expectStatus(refused, 429)
          assert.match(refused.body.message, /^Too many failed logins; try again in \d+ seconds$/)
          const retryAfter = Number(refused.headers["retry-after"])
          assert.isTrue(retryAfter > 890 && retryAfter <= 900, String(retryAfter))
        }
        expectStatus(
          yield* api.request("POST", "/login", { body: { email: adminEmail, password: adminPassword } }),
          200
        )
      }))
  })
}

const defaultCostServers = onApiTestStores((db) =>
  testServer(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url, {
    passwordHashCost: NodePasswordHasher.defaultCost,
    loginThrottle: { maxFailuresPerEmail: 100, maxFailuresPerAddress: 3, windowSeconds: 60 }
  })
)

for (const [label, server] of defaultCostServers) {
  layer(server, { timeout: 60_000 })(`password hashes and address throttling on ${label}`, (it) => {
    it.effect("a hash below OWASP's cost is replaced by one at N = 2^17 at the next login", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const sql = yield* SqlClient.SqlClient
        const storedHash = Effect.map(
          sql<{ password_hash: string }>`SELECT password_hash FROM users WHERE email = ${adminEmail}`,
          (rows) => rows[0].password_hash
        )
        assert.match(yield* storedHash, /^scrypt\$131072\$8\$1\$/)
        const weak = yield* Effect.flatMap(PasswordHasher, (hasher) => hasher.hash(adminPassword)).pipe(
          Effect.provide(NodePasswordHasher.layerWithCost(14))
        )
        yield* sql`UPDATE users SET password_hash = ${weak} WHERE email = ${adminEmail}`
        yield* api.login()
        const upgraded = yield* storedHash
        assert.match(upgraded, /^scrypt\$131072\$8\$1\$/)
        yield* api.login()
        assert.strictEqual(yield* storedHash, upgraded)
      }).pipe(Effect.orDie))

    it.effect("failed logins from one address are throttled across e-mail addresses", () =>
      Effect.gen(function*() {
        const api = yield* Api
        for (let i = 0; i < 3; i++) {
          expectStatus(
            yield* api.request("POST", "/login", { body: { email: `nobody${i}@example.com`, password: "x" } }),
            401
          )
        }
        const refused = yield* api.request("POST", "/login", { body: { email: adminEmail, password: adminPassword } })
        expectStatus(refused, 429)
        assert.isTrue(Number(refused.headers["retry-after"]) > 0)
      }))
  })
}
