/**
 * Carriers on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type Carrier, CarrierRepository } from "@wms/core"
import { Effect, Layer } from "effect"
import { lockClause, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, insertReturningKey, returnsRow, rows, run } from "./Query.js"

export const layer = Layer.effect(
  CarrierRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal("id, site_id, name, address, zipcode, town, country, phone, url")

    return CarrierRepository.of({
      list: (siteId, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<Carrier>`SELECT ${columns}${total} FROM carriers WHERE site_id = ${siteId}
            ORDER BY id ${windowClause(sql, page)}`)
        ),
      find: (id, lock) =>
        first(sql<Carrier>`SELECT ${columns} FROM carriers WHERE id = ${id} ${lockClause(sql, lock)}`),
      insert: (siteId, input) => insertReturningKey(sql, "carriers", { site_id: siteId, ...input }),
      update: (id, input) => returnsRow(sql`UPDATE carriers SET ${sql.update(input)} WHERE id = ${id} RETURNING id`),
      isReferenced: (id) => returnsRow(sql`SELECT 1 AS used FROM orders WHERE carrier_id = ${id} LIMIT 1`),
      remove: (id) => run(sql`DELETE FROM carriers WHERE id = ${id}`)
    })
  })
)
