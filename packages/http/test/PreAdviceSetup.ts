/**
 * What the pre-advice tests share: the test server with a second connection to its database (to
 * write master data and statuses the API cannot set yet), and a fulfillment site with two clients,
 * SKUs and suppliers.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { assert } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { onBothStores } from "../../../testing/databases.js"
import { insertSku, insertSupplier } from "../../../testing/fixtures.js"
import { Api, testServer } from "../../../testing/server.js"

/** The test server on each store, with a `SqlClient` on the same database. */
export const serverWithSqlOnBothStores = onBothStores((db) =>
  db.kind === "sqlite"
    ? Layer.merge(testServer(`sqlite:${db.filename}`), SqliteClient.layer({ filename: db.filename }))
    : Layer.merge(testServer(db.url), PgClient.layer({ url: Redacted.make(db.url), maxConnections: 2 }))
)

export const unique = (prefix: string) => `${prefix}-${globalThis.crypto.randomUUID().slice(0, 8)}`

export type Method = "GET" | "POST" | "PUT" | "DELETE"

/**
 * A fresh fulfillment site `f` with clients `c1`, `c2`: SKUs `sku1` (of c1), `sku2` (of c2) and
 * `skuF` (of the site), suppliers `sup1` (of c1), `sup2` (of c2) and `supF` (of the site), and on
 * the plain site `main` the SKU `skuM` and supplier `supM`.
 */
export const setup = Effect.gen(function*() {
  const api = yield* Api
  const login = yield* api.request("POST", "/login", { body: { email: "admin@example.com", password: "admin-password" } })
  const token: string = login.body.token
  const userId: string = login.body.userId
  const f = unique("F")
  const c1 = unique("C1")
  const c2 = unique("C2")
  const call = (method: Method, path: string, site: string, body?: unknown) =>
    api.request(method, path, { token, site, body })
  const created = (response: { status: number; body: unknown }, what: string) =>
    assert.strictEqual(response.status, 204, `${what}: ${JSON.stringify(response.body)}`)
  created(yield* call("POST", "/sites", "main", { site_id: f, name: "Fulfillment", fulfillment: true }), "site")
  created(yield* call("POST", "/clients", f, { client_id: c1, name: "Client 1" }), "client 1")
  created(yield* call("POST", "/clients", f, { client_id: c2, name: "Client 2" }), "client 2")
  const sku1 = yield* insertSku({ site_id: f, client_id: c1, sku_id: unique("SKU1") })
  const sku2 = yield* insertSku({ site_id: f, client_id: c2, sku_id: unique("SKU2") })
  const skuF = yield* insertSku({ site_id: f, sku_id: unique("SKUF") })
  const skuM = yield* insertSku({ sku_id: unique("SKUM") })
  const sup1 = yield* insertSupplier({ site_id: f, client_id: c1, name: "Supplier 1" })
  const sup2 = yield* insertSupplier({ site_id: f, client_id: c2, name: "Supplier 2" })
  const supF = yield* insertSupplier({ site_id: f, name: "Supplier F" })
  const supM = yield* insertSupplier({ name: "Supplier M" })
  return { api, token, userId, call, f, c1, c2, sku1, sku2, skuF, skuM, sup1, sup2, supF, supM }
})

/** Sets a pre-advice's status in the store, as receiving will. */
export const setStatus = (siteId: string, preAdviceId: string, status: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE preadvices SET status_id = ${status} WHERE site_id = ${siteId} AND pre_advice_id = ${preAdviceId}`
  }).pipe(Effect.orDie)

/** The rows of the pre-advice tables, to prove that a refused write changed nothing. */
export const storeSnapshot = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const headers = yield* sql`SELECT id, site_id, pre_advice_id, client_id, status_id, supplier_id, created_at, created_by
    FROM preadvices ORDER BY id`
  const lines = yield* sql`SELECT preadvice_ref, line, sku_id, qty, qty_received, pallet_id, client_id
    FROM preadvice_lines ORDER BY preadvice_ref, line`
  return { headers, lines }
}).pipe(Effect.orDie)
