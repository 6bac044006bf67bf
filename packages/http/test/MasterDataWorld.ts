/**
 * What the master-data tests share: the test server with a direct connection to its database
 * (to write the orders and pre-advices that refer to master data), tenants to scope requests to,
 * and a small client bound to a token and a `site` header.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { assert } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { onBothStores } from "../../../testing/databases.js"
import { Api, testServer, type TestResponse } from "../../../testing/server.js"

/** The test server on each store, plus a `SqlClient` of its own on the same database. */
export const serverWithDatabase = onBothStores((db) =>
  Layer.merge(
    testServer(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url),
    db.kind === "sqlite"
      ? SqliteClient.layer({ filename: db.filename })
      : PgClient.layer({ url: Redacted.make(db.url), maxConnections: 2 })
  )
)

export const unique = (prefix: string) => `${prefix}-${globalThis.crypto.randomUUID().slice(0, 8)}`

/** Requests with one token and one `site` header. */
export interface Caller {
  readonly get: (path: string) => Effect.Effect<TestResponse>
  readonly post: (path: string, body: unknown) => Effect.Effect<TestResponse>
  readonly put: (path: string, body: unknown) => Effect.Effect<TestResponse>
  readonly del: (path: string) => Effect.Effect<TestResponse>
}

export const callerFor = (token: string, site: string) =>
  Effect.map(Api, (api): Caller => ({
    get: (path) => api.request("GET", path, { token, site }),
    post: (path, body) => api.request("POST", path, { token, site, body }),
    put: (path, body) => api.request("PUT", path, { token, site, body }),
    del: (path) => api.request("DELETE", path, { token, site })
  }))

/** Asserts a 204 and passes nothing on. */
export const expect204 = (response: TestResponse, what = "") =>
  assert.strictEqual(response.status, 204, `${what} ${JSON.stringify(response.body)}`)

/** Asserts a `{message}` error of the status. */
export const expectError = (response: TestResponse, status: number, message: string) =>
  assert.deepStrictEqual([response.status, response.body], [status, { message }])

/**
 * A plain site P and a fulfillment site F with clients F1 and F2, each as a caller with the admin
 * token (an admin may use any scope); `siteOf` tells the site of each scope.
 */
export const makeTenants = Effect.gen(function*() {
  const api = yield* Api
  const admin = yield* api.login()
  const ids = { p: unique("P"), f: unique("F"), f1: unique("F1"), f2: unique("F2") }
  const main = yield* callerFor(admin, "main")
  expect204(yield* main.post("/sites", { site_id: ids.p, name: "P" }))
  expect204(yield* main.post("/sites", { site_id: ids.f, name: "F", fulfillment: true }))
  const f = yield* callerFor(admin, ids.f)
  expect204(yield* f.post("/clients", { client_id: ids.f1, name: "F1" }))
  expect204(yield* f.post("/clients", { client_id: ids.f2, name: "F2" }))
  return {
    ...ids,
    admin,
    P: yield* callerFor(admin, ids.p),
    F: f,
    F1: yield* callerFor(admin, ids.f1),
    F2: yield* callerFor(admin, ids.f2)
  }
})

/** The id of the last record of a list, e.g. the one just created. */
export const lastId = (caller: Caller, path: string) =>
  Effect.map(caller.get(path), (response) => {
    assert.strictEqual(response.status, 200)
    return response.body[response.body.length - 1].id as number
  })

/** Writes an order of the site that refers to a customer and a carrier, as the order feature would. */
export const insertOrder = (siteId: string, refs: { readonly customer_id?: number; readonly carrier_id?: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO orders ${
      sql.insert({
        site_id: siteId,
        order_id: unique("O"),
        client_id: null,
        status_id: 14,
        customer_id: refs.customer_id ?? null,
        carrier_id: refs.carrier_id ?? null,
        created_at: new Date().toISOString(),
        created_by: "test"
      })
    }`
  }).pipe(Effect.orDie)

/** Writes a pre-advice of the site that refers to a supplier. */
export const insertPreAdvice = (siteId: string, supplierId: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO preadvices ${
      sql.insert({
        site_id: siteId,
        pre_advice_id: unique("PA"),
        client_id: null,
        status_id: 1,
        supplier_id: supplierId,
        created_at: new Date().toISOString(),
        created_by: "test"
      })
    }`
  }).pipe(Effect.orDie)
