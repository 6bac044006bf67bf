/**
 * Customers and suppliers on @effect/sql: two tables of one shape.
 */
import { SqlClient } from "@effect/sql"
import { ClientId, type Partner, type PartnerKind, PartnerRepository, SiteId } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { lockClause, visibleIn, windowClause } from "./SqlMasterData.js"

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

    const referrers = (kind: PartnerKind, id: number) =>
      kind === "customer"
        ? sql`SELECT 1 AS used FROM orders WHERE customer_id = ${id} LIMIT 1`
        : sql`SELECT 1 AS used FROM preadvices WHERE supplier_id = ${id} LIMIT 1`

    return PartnerRepository.of({
      list: (kind, scope, window) =>
        sql<PartnerRow>`SELECT * FROM ${table(kind)} WHERE ${visibleIn(sql, scope)}
          ORDER BY id ${windowClause(sql, window)}`.pipe(
          Effect.map((rows) => rows.map(toPartner)),
          Effect.orDie
        ),
      find: (kind, id, lock) =>
        sql<PartnerRow>`SELECT * FROM ${table(kind)} WHERE id = ${id} ${lockClause(sql, lock)}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              owner: {
                site_id: SiteId.make(row.site_id),
                client_id: row.client_id === null ? null : ClientId.make(row.client_id)
              },
              record: toPartner(row)
            }))
          ),
          Effect.orDie
        ),
      insert: (kind, owner, input) =>
        sql<{ id: number }>`INSERT INTO ${table(kind)} ${sql.insert({ ...owner, ...input })} RETURNING id`.pipe(
          Effect.map((rows) => rows[0].id),
          Effect.orDie
        ),
      update: (kind, id, input) =>
        sql<{ id: number }>`UPDATE ${table(kind)} SET ${sql.update(input)} WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      isReferenced: (kind, id) =>
        referrers(kind, id).pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      remove: (kind, id) =>
        sql`DELETE FROM ${table(kind)} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
