/**
 * Receiving's view of pre-advices on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type PreAdviceToReceive, ReceivingRepository, type Scope } from "@wms/core"
import type { LineToReceive } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { lockClause } from "./SqlMasterData.js"

export const layer = Layer.effect(
  ReceivingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")
    const visible = (scope: Scope) =>
      scope.client_id === null
        ? sql`site_id = ${scope.site_id}`
        : sql`site_id = ${scope.site_id} AND client_id = ${scope.client_id}`

    return ReceivingRepository.of({
      lockPreAdvice: (scope, preAdviceId) =>
        Effect.gen(function*() {
          const headers = yield* sql<Omit<PreAdviceToReceive, "lines"> & { id: number }>`
            SELECT id, pre_advice_id, client_id, status_id FROM preadvices
            WHERE ${visible(scope)} AND pre_advice_id = ${preAdviceId} ${forUpdate}`
          if (headers.length === 0) return Option.none()
          const { id, ...header } = headers[0]
          const lines = yield* sql<LineToReceive>`SELECT line, sku_id, qty, qty_received, client_id
            FROM preadvice_lines WHERE preadvice_ref = ${id} ORDER BY line`
          return Option.some({ ...header, ref: id, lines })
        }).pipe(Effect.orDie),
      receivingLocation: (siteId) =>
        sql<{ receiving_location: string }>`SELECT receiving_location FROM sites WHERE site_id = ${siteId}`.pipe(
          Effect.map((rows) => rows[0].receiving_location),
          Effect.orDie
        ),
      addReceived: (ref, line, qty) =>
        sql`UPDATE preadvice_lines SET qty_received = qty_received + ${qty}
          WHERE preadvice_ref = ${ref} AND line = ${line}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      setStatus: (ref, status) =>
        sql`UPDATE preadvices SET status_id = ${status} WHERE id = ${ref}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
