/**
 * What the order tests share: a world of tenants with a user of each scope and their master data,
 * built once per store with the test server.
 */
import { Context, Effect, Layer } from "effect"
import { insertCarrier, insertCustomer, insertSku } from "../../../testing/fixtures.js"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"
import { callerFor, expect204, makeTenants, unique } from "../../../testing/world.js"

const password = "orders-password"

/**
 * A plain site P and a fulfillment site F with clients F1 and F2; a user of each scope; and master
 * data: on P a customer with a town, one without, a carrier and SKUs; on F a customer, carrier and
 * SKU of each client and a SKU of the site itself.
 */
export const makeWorld = Effect.gen(function*() {
  const api = yield* Api
  const { p, f, f1, f2, admin } = yield* makeTenants
  const main = yield* callerFor(admin, "main")
  const user = (site: string, client?: string) =>
    Effect.gen(function*() {
      const email = `${unique("u")}@example.com`
      expect204(yield* main.post("/users", { email, password, name: "Orderer", site, client }), "user")
      const login = yield* api.request("POST", "/login", { body: { email, password } })
      return { token: login.body.token as string, userId: login.body.userId as string }
    })
  return {
    p,
    f,
    f1,
    f2,
    admin,
    userP: yield* user(p),
    userF: yield* user(f),
    userF1: yield* user(f, f1),
    userF2: yield* user(f, f2),
    p_customer: yield* insertCustomer({ site_id: p, name: "Acme", town: "Utrecht" }),
    p_customerNoTown: yield* insertCustomer({ site_id: p, name: "Solo" }),
    p_carrier: yield* insertCarrier({ site_id: p, name: "PostNL" }),
    p_sku1: yield* insertSku({ site_id: p, sku_id: "SKU-1" }),
    p_sku2: yield* insertSku({ site_id: p, sku_id: "SKU-2" }),
    p_sku3: yield* insertSku({ site_id: p, sku_id: "SKU-3" }),
    f1_customer: yield* insertCustomer({ site_id: f, client_id: f1, name: "F1 Customer", town: "Delft" }),
    f2_customer: yield* insertCustomer({ site_id: f, client_id: f2, name: "F2 Customer" }),
    f_carrier: yield* insertCarrier({ site_id: f, name: "DHL" }),
    f1_sku: yield* insertSku({ site_id: f, client_id: f1, sku_id: "F1-SKU" }),
    f2_sku: yield* insertSku({ site_id: f, client_id: f2, sku_id: "F2-SKU" }),
    f_sku: yield* insertSku({ site_id: f, sku_id: "F-SKU" })
  }
})
export type World = Effect.Effect.Success<typeof makeWorld>

/** One world per store, built with the server: creating users is slow on purpose (scrypt). */
export class OrdersWorld extends Context.Tag("test/OrdersWorld")<OrdersWorld, World>() {}

/** The server (with its `SqlClient`) and a world on each store. */
export const serverWithWorld = serverOnApiTestStores.map(([label, server]) =>
  [label, Layer.effect(OrdersWorld, makeWorld).pipe(Layer.provideMerge(server))] as const
)
