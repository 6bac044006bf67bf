/**
 * Rows written straight into the store through the test server's own `SqlClient`: master data for
 * tests of features that only reference it, order and pre-advice headers that refer to it, and
 * statuses no endpoint sets yet. The rows follow migration 0002; each insert returns the id a
 * request would use.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { unique } from "./world.js"

/** The scope a row belongs to: site `main` and no client unless told. */
export interface Owned {
  readonly site_id?: string
  readonly client_id?: string | null
}

const owner = (o: Owned) => ({ site_id: o.site_id ?? "main", client_id: o.client_id ?? null })

type PartnerFields = Owned & { readonly name: string; readonly town?: string | null }

const insertPartner = (table: "customers" | "suppliers", fields: PartnerFields) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: number }>`INSERT INTO ${sql(table)} ${
      sql.insert({ ...owner(fields), name: fields.name, town: fields.town ?? null })
    } RETURNING id`
    return rows[0].id
  }).pipe(Effect.orDie)

/** Writes a customer; returns its id. */
export const insertCustomer = (fields: PartnerFields) => insertPartner("customers", fields)

/** Writes a supplier; returns its id. */
export const insertSupplier = (fields: PartnerFields) => insertPartner("suppliers", fields)

/** Writes a carrier of the site; returns its id. */
export const insertCarrier = (fields: { readonly site_id?: string; readonly name: string }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: number }>`INSERT INTO carriers ${
      sql.insert({ site_id: fields.site_id ?? "main", name: fields.name })
    } RETURNING id`
    return rows[0].id
  }).pipe(Effect.orDie)

/** Writes a SKU, an expiry SKU when `expiry_days` is given; returns its sku_id. */
export const insertSku = (
  fields: Owned & { readonly sku_id: string; readonly expiry_days?: number | null; readonly description?: string }
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO skus ${
      sql.insert({
        ...owner(fields),
        sku_id: fields.sku_id,
        description: fields.description ?? `Article ${fields.sku_id}`,
        expiry_sku: fields.expiry_days != null ? 1 : 0,
        expiry_days: fields.expiry_days ?? null,
        obsolete: 0,
        new: 1,
        pick_method: 1
      })
    }`
    return fields.sku_id
  }).pipe(Effect.orDie)

/** Writes the header of an order or a pre-advice with its creation stamp. */
const insertHeader = (table: "orders" | "preadvices", row: Record<string, string | number | null>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO ${sql(table)} ${
      sql.insert({ ...row, created_at: new Date().toISOString(), created_by: "test" })
    }`
  }).pipe(Effect.orDie)

/** Writes an order header (status 14, no client) that refers to a customer and a carrier; returns its order id. */
export const insertOrder = (
  fields: { readonly site_id?: string; readonly customer_id?: number; readonly carrier_id?: number }
) => {
  const orderId = unique("O")
  return Effect.as(
    insertHeader("orders", {
      ...owner({ site_id: fields.site_id }),
      order_id: orderId,
      status_id: 14,
      customer_id: fields.customer_id ?? null,
      carrier_id: fields.carrier_id ?? null
    }),
    orderId
  )
}

/** Writes a pre-advice header (status 1, no client) that refers to a supplier; returns its pre-advice id. */
export const insertPreAdvice = (fields: { readonly site_id?: string; readonly supplier_id: number }) => {
  const preAdviceId = unique("PA")
  return Effect.as(
    insertHeader("preadvices", {
      ...owner({ site_id: fields.site_id }),
      pre_advice_id: preAdviceId,
      status_id: 1,
      supplier_id: fields.supplier_id
    }),
    preAdviceId
  )
}

/** Sets the status of an order or a pre-advice in the store, for states no endpoint reaches. */
const setStatus = (
  table: "orders" | "preadvices",
  idColumn: "order_id" | "pre_advice_id",
  siteId: string,
  id: string,
  statusId: number
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE ${sql(table)} SET status_id = ${statusId} WHERE ${sql(idColumn)} = ${id} AND site_id = ${siteId}`
  }).pipe(Effect.orDie)

/** Sets a pre-advice's status, as receiving would. */
export const setPreAdviceStatus = (siteId: string, preAdviceId: string, statusId: number) =>
  setStatus("preadvices", "pre_advice_id", siteId, preAdviceId, statusId)
