/**
 * Transactions on PostgreSQL: the client's own, with SQL failures turned into defects.
 */
import { SqlClient } from "@effect/sql"
import { Transactor } from "@wms/core"
import { Effect, Layer } from "effect"

export const layer = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      atomically: (effect) => sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die)) as typeof effect
    }))
)
