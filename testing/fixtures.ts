/**
 * Master data written straight into the store, for tests of features that only reference it.
 * The rows follow migration 0002; each helper returns the id a request would use.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface Owned {
  readonly site_id?: string
  readonly client_id?: string | null
}

const owner = (o: Owned) => ({ site_id: o.site_id ?? "main", client_id: o.client_id ?? null })

export const insertCustomer = (fields: Owned & { readonly name: string; readonly town?: string | null }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: number }>`INSERT INTO customers ${
      sql.insert({ ...owner(fields), name: fields.name, town: fields.town ?? null })
    } RETURNING id`
    return rows[0].id
  }).pipe(Effect.orDie)

export const insertSupplier = (fields: Owned & { readonly name: string; readonly town?: string | null }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: number }>`INSERT INTO suppliers ${
      sql.insert({ ...owner(fields), name: fields.name, town: fields.town ?? null })
    } RETURNING id`
    return rows[0].id
  }).pipe(Effect.orDie)

export const insertCarrier = (fields: { readonly site_id?: string; readonly name: string }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: number }>`INSERT INTO carriers ${
      sql.insert({ site_id: fields.site_id ?? "main", name: fields.name })
    } RETURNING id`
    return rows[0].id
  }).pipe(Effect.orDie)

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
