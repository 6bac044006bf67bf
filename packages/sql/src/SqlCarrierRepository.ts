/**
 * Carriers on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type Carrier, CarrierRepository } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { lockClause, windowClause } from "./SqlMasterData.js"

export const layer = Layer.effect(
  CarrierRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal("id, site_id, name, address, zipcode, town, country, phone, url")

    return CarrierRepository.of({
      list: (siteId, window) =>
        sql<Carrier>`SELECT ${columns} FROM carriers WHERE site_id = ${siteId}
          ORDER BY id ${windowClause(sql, window)}`.pipe(
          Effect.orDie
        ),
      find: (id, lock) =>
        sql<Carrier>`SELECT ${columns} FROM carriers WHERE id = ${id} ${lockClause(sql, lock)}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      insert: (siteId, input) =>
        sql<{ id: number }>`INSERT INTO carriers ${sql.insert({ site_id: siteId, ...input })} RETURNING id`.pipe(
          Effect.map((rows) => rows[0].id),
          Effect.orDie
        ),
      update: (id, input) =>
        sql<{ id: number }>`UPDATE carriers SET ${sql.update(input)} WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      isReferenced: (id) =>
        sql`SELECT 1 AS used FROM orders WHERE carrier_id = ${id} LIMIT 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      remove: (id) =>
        sql`DELETE FROM carriers WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
