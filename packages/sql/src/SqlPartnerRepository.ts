/**
 * Customers and suppliers on @effect/sql: two tables of one shape.
 */
import { SqlClient } from "@effect/sql"
import { ClientId, type Partner, type PartnerKind, PartnerRepository, SiteId } from "@wms/core"
import { Effect, Layer } from "effect"
import { lockClause, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, insertReturningKey, returnsRow, rows, run } from "./Query.js"

interface PartnerRow {
  readonly id: number
  readonly site_id: string
  readonly client_id: string | null
  readonly name: string
  readonly attention: string | null
  readonly address: string | null
  readonly zipcode: string | null
  readonly town: string | null
  readonly country: string | null
  readonly phone: string | null
  readonly website: string | null
}

const tables = { customer: "customers", supplier: "suppliers" } as const

// Addresses are kept on the record itself: its address is its own id.
const toPartner = (row: PartnerRow): Partner => ({
  id: row.id,
  address_id: row.id,
  name: row.name,
  attention: row.attention,
  address: row.address,
  zipcode: row.zipcode,
  town: row.town,
  country: row.country,
  phone: row.phone,
  website: row.website
})

export const layer = Layer.effect(
  PartnerRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = (kind: PartnerKind) => sql(tables[kind])

    return PartnerRepository.of({
      list: (kind, scope, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<PartnerRow>`SELECT *${total} FROM ${table(kind)} WHERE ${visibleIn(sql, scope)}
              ORDER BY id ${windowClause(sql, page)}`),
          toPartner
        ),
      find: (kind, id, lock) =>
        first(sql<PartnerRow>`SELECT * FROM ${table(kind)} WHERE id = ${id} ${lockClause(sql, lock)}`, (row) => ({
          owner: {
            site_id: SiteId.make(row.site_id),
            client_id: row.client_id === null ? null : ClientId.make(row.client_id)
          },
          record: toPartner(row)
        })),
      insert: (kind, owner, input) => insertReturningKey(sql, tables[kind], { ...owner, ...input }),
      update: (kind, id, input) =>
        returnsRow(sql`UPDATE ${table(kind)} SET ${sql.update(input)} WHERE id = ${id} RETURNING id`),
      isReferenced: (kind, id) =>
        returnsRow(
          kind === "customer"
            ? sql`SELECT 1 AS used FROM orders WHERE customer_id = ${id} LIMIT 1`
            : sql`SELECT 1 AS used FROM preadvices WHERE supplier_id = ${id} LIMIT 1`
        ),
      remove: (kind, id) => run(sql`DELETE FROM ${table(kind)} WHERE id = ${id}`)
    })
  })
)
