/**
 * `Idempotency-Key` on the real server, on both stores: a retry gets the first answer without
 * running again, the key with another request is a 409, a malformed key a 400; keys are their
 * caller's, expire after 24 hours, and hold across processes and against concurrent retries.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { insertSku } from "../../../testing/fixtures.js"
import { call, type ServerProcess, startServer } from "../../../testing/processes.js"
import { adminEmail, adminPassword, Api, serverOnBothStores, type TestResponse } from "../../../testing/server.js"
import { expectStatus, unique } from "../../../testing/world.js"
import { invalidKeyMessage } from "../src/middleware/Idempotency.js"
import { addStock, session, startedWave } from "./PickingWorld.js"

const replayed = (response: { readonly headers: Record<string, string> }) =>
  response.headers["idempotent-replayed"] === "true"

/** Status, message and whether the answer was replayed. */
const answer = (response: TestResponse) => [response.status, response.body?.message, replayed(response)]

const stockOf = (sku: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ qty: number }>`SELECT CAST(COALESCE(SUM(qty), 0) AS INTEGER) AS qty FROM contents
      WHERE sku_id = ${sku}`
    return rows[0].qty
  }).pipe(Effect.orDie)

const keyRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ user_id: string; idempotency_key: string }>`SELECT user_id, idempotency_key FROM idempotency_keys`
}).pipe(Effect.orDie)

const waveCount = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return (yield* sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM waves`)[0].n
}).pipe(Effect.orDie)

/** Moves a key's use back by 25 hours, past its 24-hour window. */
const age = (key: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const past = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString()
    yield* sql`UPDATE idempotency_keys SET created_at = ${past} WHERE idempotency_key = ${key}`
  }).pipe(Effect.orDie)

/** An admin session on `main` whose requests carry `key`. */
const keyed = Effect.gen(function*() {
  const api = yield* Api
  const token = yield* api.login()
  return (method: "POST" | "GET", path: string, key: string, body?: unknown, site = "main") =>
    api.request(method, path, { token, site, body, headers: { "idempotency-key": key } })
})

for (const [label, server] of serverOnBothStores) {
  layer(server, { timeout: 60_000 })(`Idempotency-Key on ${label}`, (it) => {
    // First in the suite: the first request with a key in a process forgets the expired keys.
    it.effect("forgets expired keys, and runs a request whose key expired anew", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const past = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString()
        yield* sql`INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, status, headers, body, created_at)
          VALUES ('someone', 'old-key', 'x', 204, '{}', NULL, ${past})`
        const request = yield* keyed
        const sku = yield* insertSku({ sku_id: unique("IK") })
        const key = unique("key")
        const body = { sku_id: sku, loc_id: "A-1", qty: 5 }
        assert.deepStrictEqual(answer(yield* request("POST", "/inventory/adjustments", key, body)), [
          204,
          undefined,
          false
        ])
        assert.deepStrictEqual((yield* keyRows).map((row) => row.idempotency_key), [key])
        yield* age(key)
        assert.deepStrictEqual(answer(yield* request("POST", "/inventory/adjustments", key, body)), [
          204,
          undefined,
          false
        ])
        assert.strictEqual(yield* stockOf(sku), 10)
        assert.deepStrictEqual(answer(yield* request("POST", "/inventory/adjustments", key, body)), [
          204,
          undefined,
          true
        ])
        assert.strictEqual(yield* stockOf(sku), 10)
      }))

    it.effect("a retried adjustment applies its delta once; a new key applies it again", () =>
      Effect.gen(function*() {
        const request = yield* keyed
        const sku = yield* insertSku({ sku_id: unique("IK") })
        const body = { sku_id: sku, loc_id: "A-1", qty: 7 }
        const [key, other] = [unique("key"), unique("key")]
        const first = yield* request("POST", "/inventory/adjustments", key, body)
        const retry = yield* request("POST", "/inventory/adjustments", key, body)
        assert.deepStrictEqual([answer(first), answer(retry)], [[204, undefined, false], [204, undefined, true]])
        assert.strictEqual(yield* stockOf(sku), 7)
        expectStatus(yield* request("POST", "/inventory/adjustments", other, body), 204)
        assert.strictEqual(yield* stockOf(sku), 14)
      }))

    it.effect("a retried task confirm replays its 204 instead of 404", () =>
      Effect.gen(function*() {
        const plain = yield* session
        const request = yield* keyed
        const sku = yield* insertSku({ sku_id: unique("IK") })
        yield* addStock(plain, sku, "P-1", 4)
        const waveId = yield* startedWave(plain, [{ order_id: unique("IO"), lines: [{ sku_id: sku, qty: 4 }] }])
        const [task] = (yield* plain("GET", `/tasks?wave_id=${waveId}`)).body
        const key = unique("key")
        const first = yield* request("POST", `/tasks/${task.id}/confirm`, key, {})
        const retry = yield* request("POST", `/tasks/${task.id}/confirm`, key, {})
        assert.deepStrictEqual([answer(first), answer(retry)], [[204, undefined, false], [204, undefined, true]])
        const unkeyed = yield* plain("POST", `/tasks/${task.id}/confirm`, {})
        assert.deepStrictEqual(answer(unkeyed), [404, `Task with id ${task.id} not found`, false])
        assert.strictEqual(yield* stockOf(sku), 0)
      }))

    it.effect("a retry gets the first answer's body and headers; POST /orders, a hot route, keeps its key too", () =>
      Effect.gen(function*() {
        const plain = yield* session
        const request = yield* keyed
        const customer = unique("Customer")
        expectStatus(
          yield* plain("POST", "/wave-definitions", {
            description: customer,
            criterium_id: 1,
            value: customer,
            pick_type: 1
          }),
          204
        )
        const definitions = (yield* plain("GET", "/wave-definitions")).body
        const definition = definitions.find((d: { value: string }) => d.value === customer)
        const key = unique("key")
        const wavesBefore = yield* waveCount
        const created = yield* request("POST", "/waves/create", key, { wavedef_id: definition.id })
        const retried = yield* request("POST", "/waves/create", key, { wavedef_id: definition.id })
        assert.deepStrictEqual([created.status, retried.status, replayed(created), replayed(retried)], [
          200,
          200,
          false,
          true
        ])
        assert.deepStrictEqual(retried.body, created.body)
        assert.strictEqual(retried.headers["content-type"], created.headers["content-type"])
        assert.strictEqual(retried.headers["content-length"], created.headers["content-length"])
        assert.strictEqual(yield* waveCount, wavesBefore + 1)

        const order = {
          order_id: unique("IO"),
          lines: [{ sku_id: yield* insertSku({ sku_id: unique("IK") }), qty: 1 }]
        }
        const orderKey = unique("key")
        const placed = yield* request("POST", "/orders", orderKey, order)
        const again = yield* request("POST", "/orders", orderKey, order)
        assert.deepStrictEqual([answer(placed), answer(again)], [[204, undefined, false], [204, undefined, true]])
        const unkeyed = yield* plain("POST", "/orders", order)
        assert.deepStrictEqual(answer(unkeyed), [409, `Order with OrderID ${order.order_id} already exists`, false])
      }))

    it.effect("the key with another body, path or site is a 409 naming it; a malformed key is a 400 naming the header", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const request = yield* keyed
        const sku = yield* insertSku({ sku_id: unique("IK") })
        const key = unique("key")
        const body = { sku_id: sku, loc_id: "A-1", qty: 3 }
        expectStatus(yield* request("POST", "/inventory/adjustments", key, body), 204)
        const reused = [409, `Idempotency-Key ${key} was used with another request`, false]
        assert.deepStrictEqual(
          answer(yield* request("POST", "/inventory/adjustments", key, { ...body, qty: 4 })),
          reused
        )
        // The same JSON written otherwise is another request: bodies are compared as sent.
        const token = yield* api.login()
        const spaced = yield* api.request("POST", "/inventory/adjustments", {
          token,
          site: "main",
          rawBody: JSON.stringify(body, null, 1),
          headers: { "idempotency-key": key }
        })
        assert.deepStrictEqual(answer(spaced), reused)
        assert.deepStrictEqual(
          answer(yield* request("POST", "/skus", key, { sku_id: unique("IK"), description: "x" })),
          reused
        )
        const elsewhere = unique("S")
        const site = { site_id: elsewhere, name: elsewhere, fulfillment: false }
        expectStatus(yield* api.request("POST", "/sites", { token, site: "main", body: site }), 204)
        assert.deepStrictEqual(answer(yield* request("POST", "/inventory/adjustments", key, body, elsewhere)), reused)
        assert.strictEqual(yield* stockOf(sku), 3)
        // The structured-field form of the header, a quoted string, is the same key.
        assert.deepStrictEqual(answer(yield* request("POST", "/inventory/adjustments", `"${key}"`, body)), [
          204,
          undefined,
          true
        ])

        for (const malformed of ["", "with space", "é-key", "a\"b", "back\\slash", "x".repeat(256), "\"\""]) {
          const refused = yield* request("POST", "/inventory/adjustments", malformed, body)
          assert.deepStrictEqual(answer(refused), [400, invalidKeyMessage, false], JSON.stringify(malformed))
        }
        expectStatus(yield* request("POST", "/inventory/adjustments", "x".repeat(255), body), 204)
        assert.strictEqual(yield* stockOf(sku), 6)
      }))

    it.effect("a kept 4xx answer is replayed as it was", () =>
      Effect.gen(function*() {
        const request = yield* keyed
        const sku = unique("IK")
        const key = unique("key")
        const body = { sku_id: sku, loc_id: "A-1", qty: 2 }
        const refused = [400, `Invalid field sku_id: SKU ${sku} does not exist`]
        const first = yield* request("POST", "/inventory/adjustments", key, body)
        assert.deepStrictEqual(answer(first), [...refused, false])
        yield* insertSku({ sku_id: sku })
        assert.deepStrictEqual(answer(yield* request("POST", "/inventory/adjustments", key, body)), [...refused, true])
        assert.strictEqual(yield* stockOf(sku), 0)
        expectStatus(yield* request("POST", "/inventory/adjustments", unique("key"), body), 204)
        assert.strictEqual(yield* stockOf(sku), 2)
      }))

    it.effect("a key is its caller's; a request its security refuses keeps none; /login and reads ignore the header", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const request = yield* keyed
        const email = `${unique("clerk")}@example.com`
        expectStatus(
          yield* request("POST", "/users", unique("key"), {
            email,
            password: "clerk-password",
            name: "Clerk",
            site: "main"
          }),
          204
        )
        const clerk = yield* api.login(email, "clerk-password")
        const sku = yield* insertSku({ sku_id: unique("IK") })
        const key = unique("key")
        const body = { sku_id: sku, loc_id: "A-1", qty: 1 }
        const headers = { "idempotency-key": key }
        const anonymous = yield* api.request("POST", "/inventory/adjustments", { site: "main", body, headers })
        assert.deepStrictEqual(answer(anonymous), [401, "Missing authorization token", false])
        const noSite = yield* api.request("POST", "/inventory/adjustments", { token: clerk, body, headers })
        assert.deepStrictEqual(answer(noSite), [403, "Missing header site", false])
        // A malformed key does not come before the route's own checks either.
        const notAdmin = yield* api.request("POST", "/sites", {
          token: clerk,
          site: "main",
          body: { site_id: unique("S"), name: "S", fulfillment: false },
          headers: { "idempotency-key": "with space" }
        })
        assert.deepStrictEqual(answer(notAdmin), [403, "Admin rights required", false])
        assert.deepStrictEqual(answer(yield* request("POST", "/inventory/adjustments", key, body)), [
          204,
          undefined,
          false
        ])
        const byClerk = yield* api.request("POST", "/inventory/adjustments", {
          token: clerk,
          site: "main",
          body,
          headers
        })
        assert.deepStrictEqual(answer(byClerk), [204, undefined, false])
        assert.strictEqual(yield* stockOf(sku), 2)

        const credentials = { email: adminEmail, password: adminPassword }
        for (const loginKey of [key, key, "with space"]) {
          const login = yield* api.request("POST", "/login", {
            body: credentials,
            headers: { "idempotency-key": loginKey }
          })
          assert.deepStrictEqual([login.status, replayed(login)], [200, false])
        }
        // Reads ignore the header.
        for (let i = 0; i < 2; i++) {
          const read = yield* request("GET", "/inventory/overview", key)
          assert.deepStrictEqual([read.status, replayed(read)], [200, false])
        }
        // A route that needs a token but no site: the token's user is the caller. The change ends the
        // clerk's tokens, so its retry is refused before the key is looked at.
        const change = { current_password: "clerk-password", new_password: "clerk-password-2" }
        const changeKey = { "idempotency-key": unique("key") }
        const changed = yield* api.request("POST", "/users/me/password", {
          token: clerk,
          body: change,
          headers: changeKey
        })
        assert.deepStrictEqual(answer(changed), [204, undefined, false])
        const retried = yield* api.request("POST", "/users/me/password", {
          token: clerk,
          body: change,
          headers: changeKey
        })
        assert.deepStrictEqual(answer(retried), [401, "Authorization token not valid", false])
        const rows = yield* keyRows
        assert.strictEqual(rows.filter((row) => row.idempotency_key === changeKey["idempotency-key"]).length, 1)
      }))

    it.effect("concurrent requests with one key: one runs, the others wait for it and get its answer", () =>
      Effect.gen(function*() {
        const request = yield* keyed
        const sku = yield* insertSku({ sku_id: unique("IK") })
        const key = unique("key")
        const body = { sku_id: sku, loc_id: "A-1", qty: 3 }
        const answers = yield* Effect.all(
          Array.from({ length: 8 }, () => request("POST", "/inventory/adjustments", key, body)),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(answers.map((response) => response.status), Array(8).fill(204))
        assert.strictEqual(answers.filter((response) => !replayed(response)).length, 1)
        assert.strictEqual(yield* stockOf(sku), 3)
      }))
  })
}

/** Two server processes on one fresh database: one key's requests on both, at once and retried. */
const acrossProcesses = (databaseUrl: string) =>
  Effect.gen(function*() {
    // The first process migrates and bootstraps the empty database; the second starts on a ready one.
    const first = yield* startServer(databaseUrl)
    const second = yield* startServer(databaseUrl)
    const login = yield* call(first, "POST", "/login", { body: { email: adminEmail, password: adminPassword } })
    const token = login.body.token as string
    const post = (server: ServerProcess, path: string, body: unknown, key?: string) =>
      call(server, "POST", path, {
        token,
        site: "main",
        body,
        headers: key === undefined ? {} : { "idempotency-key": key }
      })
    const stock = (sku: string) =>
      Effect.map(call(first, "GET", "/inventory/overview", { token, site: "main" }), (overview) =>
        (overview.body as ReadonlyArray<{ sku_id: string; qty: number }>)
          .filter((content) =>
            content.sku_id === sku
          )
          .reduce((sum, content) => sum + content.qty, 0))

    for (let round = 0; round < 5; round++) {
      const sku = `X-${round}`
      assert.strictEqual((yield* post(first, "/skus", { sku_id: sku, description: sku })).status, 204)
      const key = `round-${round}`
      const body = { sku_id: sku, loc_id: "A-1", qty: 4 }
      const answers = yield* Effect.all(
        Array.from({ length: 6 }, (_, i) => post(i % 2 === 0 ? first : second, "/inventory/adjustments", body, key)),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(answers.map((result) => result.status), Array(6).fill(204), JSON.stringify(answers))
      assert.strictEqual(answers.filter((result) => !replayed(result)).length, 1)
      for (const server of [first, second]) {
        const retry = yield* post(server, "/inventory/adjustments", body, key)
        assert.deepStrictEqual([retry.status, replayed(retry)], [204, true])
      }
      const other = yield* post(second, "/inventory/adjustments", { ...body, qty: 5 }, key)
      assert.deepStrictEqual([other.status, other.body.message], [
        409,
        `Idempotency-Key ${key} was used with another request`
      ])
      assert.strictEqual(yield* stock(sku), 4)
    }
  })

describe("Idempotency-Key across two server processes on one database", () => {
  it.live(
    "PostgreSQL: a key's concurrent and retried requests run once",
    () => Effect.flatMap(freshPgDatabase, acrossProcesses).pipe(Effect.scoped),
    { timeout: 120_000 }
  )

  it.live(
    "SQLite: a key's concurrent and retried requests run once",
    () => Effect.flatMap(freshSqliteFile, (filename) => acrossProcesses(`sqlite:${filename}`)).pipe(Effect.scoped),
    { timeout: 120_000 }
  )
})
