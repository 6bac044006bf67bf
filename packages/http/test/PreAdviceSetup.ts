/**
 * What the pre-advice tests share: a fulfillment site with two clients, SKUs and suppliers, and a
 * snapshot of the pre-advice tables.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { insertSku, insertSupplier } from "../../../testing/fixtures.js"
import { adminEmail, adminPassword, Api } from "../../../testing/server.js"
import { makeFulfillmentSite, type Method, unique } from "../../../testing/world.js"

/**
 * A fresh fulfillment site `f` with clients `c1`, `c2`: SKUs `sku1` (of c1), `sku2` (of c2) and
 * `skuF` (of the site), suppliers `sup1` (of c1), `sup2` (of c2) and `supF` (of the site), and on
 * the plain site `main` the SKU `skuM` and supplier `supM`.
 */
export const setup = Effect.gen(function*() {
  const api = yield* Api
  const login = yield* api.request("POST", "/login", { body: { email: adminEmail, password: adminPassword } })
  const token: string = login.body.token
  const userId: string = login.body.userId
  const { f, f1: c1, f2: c2 } = yield* makeFulfillmentSite(token)
  const call = (method: Method, path: string, site: string, body?: unknown) =>
    api.request(method, path, { token, site, body })
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

/** The rows of the pre-advice tables, to prove that a refused write changed nothing. */
export const storeSnapshot = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const headers =
    yield* sql`SELECT id, site_id, pre_advice_id, client_id, status_id, supplier_id, created_at, created_by
    FROM preadvices ORDER BY id`
  const lines = yield* sql`SELECT preadvice_ref, line, sku_id, qty, qty_received, pallet_id, client_id
    FROM preadvice_lines ORDER BY preadvice_ref, line`
  return { headers, lines }
}).pipe(Effect.orDie)
