/**
 * What the order tests share: the test server with a second, direct connection to its database
 * (for master data fixtures and for states no endpoint reaches yet), and a world of tenants with
 * their master data.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { assert } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { onBothStores } from "../../../testing/databases.js"
import { insertCarrier, insertCustomer, insertSku } from "../../../testing/fixtures.js"
import { Api, testServer } from "../../../testing/server.js"

const directClient = (
  db: { readonly kind: "sqlite"; readonly filename: string } | { readonly kind: "pg"; readonly url: string }
): Layer.Layer<SqlClient.SqlClient, unknown> =>
  db.kind === "sqlite"
    ? SqliteClient.layer({ filename: db.filename })
    : PgClient.layer({ url: Redacted.make(db.url), maxConnections: 2 })

/** The test server on each store, plus a `SqlClient` of its own on the same database. */
export const serverWithDatabase = onBothStores((db) =>
  Layer.merge(testServer(db.kind === "sqlite" ? `sqlite:${db.filename}` : db.url), directClient(db))
)

export const unique = (prefix: string) => `${prefix}-${globalThis.crypto.randomUUID().slice(0, 8)}`

/** Sets an order's status directly, as a later wave or pick would. */
export const setOrderStatus = (orderId: string, siteId: string, statusId: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE orders SET status_id = ${statusId} WHERE order_id = ${orderId} AND site_id = ${siteId}`
  }).pipe(Effect.orDie)

const password = "orders-password"

/**
 * A plain site P and a fulfillment site F with clients F1 and F2; a user of each scope; and master
 * data: on P a customer with a town, one without, a carrier and SKUs; on F a customer, carrier and
 * SKU of each client and a SKU of the site itself.
 */
export const makeWorld = Effect.gen(function*() {
  const api = yield* Api
  const admin = yield* api.login()
  const ids = { p: unique("P"), f: unique("F"), f1: unique("F1"), f2: unique("F2") }
  const post = (path: string, site: string, body: unknown) =>
    Effect.map(api.request("POST", path, { token: admin, site, body }), (response) => {
      assert.strictEqual(response.status, 204, `${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`)
    })
  yield* post("/sites", "main", { site_id: ids.p, name: "P" })
  yield* post("/sites", "main", { site_id: ids.f, name: "F", fulfillment: true })
  yield* post("/clients", ids.f, { client_id: ids.f1, name: "F1" })
  yield* post("/clients", ids.f, { client_id: ids.f2, name: "F2" })
  const user = (site: string, client?: string) =>
    Effect.gen(function*() {
      const email = `${unique("u")}@example.com`
      yield* post("/users", "main", { email, password, name: "Orderer", site, client })
      const login = yield* api.request("POST", "/login", { body: { email, password } })
      return { token: login.body.token as string, userId: login.body.userId as string }
    })
  return {
    ...ids,
    admin,
    userP: yield* user(ids.p),
    userF: yield* user(ids.f),
    userF1: yield* user(ids.f, ids.f1),
    userF2: yield* user(ids.f, ids.f2),
    p_customer: yield* insertCustomer({ site_id: ids.p, name: "Acme", town: "Utrecht" }),
    p_customerNoTown: yield* insertCustomer({ site_id: ids.p, name: "Solo" }),
    p_carrier: yield* insertCarrier({ site_id: ids.p, name: "PostNL" }),
    p_sku1: yield* insertSku({ site_id: ids.p, sku_id: "SKU-1" }),
    p_sku2: yield* insertSku({ site_id: ids.p, sku_id: "SKU-2" }),
    p_sku3: yield* insertSku({ site_id: ids.p, sku_id: "SKU-3" }),
    f1_customer: yield* insertCustomer({ site_id: ids.f, client_id: ids.f1, name: "F1 Customer", town: "Delft" }),
    f2_customer: yield* insertCustomer({ site_id: ids.f, client_id: ids.f2, name: "F2 Customer" }),
    f_carrier: yield* insertCarrier({ site_id: ids.f, name: "DHL" }),
    f1_sku: yield* insertSku({ site_id: ids.f, client_id: ids.f1, sku_id: "F1-SKU" }),
    f2_sku: yield* insertSku({ site_id: ids.f, client_id: ids.f2, sku_id: "F2-SKU" }),
    f_sku: yield* insertSku({ site_id: ids.f, sku_id: "F-SKU" })
  }
})
export type World = Effect.Effect.Success<typeof makeWorld>

/** One world per store, built with the server: creating users is slow on purpose (scrypt). */
export class OrdersWorld extends Context.Tag("test/OrdersWorld")<OrdersWorld, World>() {}

/** The server, its database and a world on each store. */
export const serverWithWorld = serverWithDatabase.map(([label, server]) =>
  [label, Layer.effect(OrdersWorld, makeWorld).pipe(Layer.provideMerge(server))] as const
)
