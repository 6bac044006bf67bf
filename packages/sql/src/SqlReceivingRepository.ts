/**
 * Receiving's view of pre-advices on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type PreAdviceToReceive, ReceivingRepository } from "@wms/core"
import type { LineToReceive } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { lockClause, visibleIn } from "./Fragments.js"
import { query, run } from "./Query.js"

export const layer = Layer.effect(
  ReceivingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")

    return ReceivingRepository.of({
      lockPreAdvice: (scope, preAdviceId) =>
        query(Effect.gen(function*() {
          const headers = yield* sql<Omit<PreAdviceToReceive, "lines"> & { id: number }>`
            SELECT id, pre_advice_id, client_id, status_id FROM preadvices
            WHERE ${visibleIn(sql, scope)} AND pre_advice_id = ${preAdviceId} ${forUpdate}`
          if (headers.length === 0) return Option.none()
          const { id, ...header } = headers[0]
          const lines = yield* sql<LineToReceive>`SELECT line, sku_id, qty, qty_received, client_id
            FROM preadvice_lines WHERE preadvice_ref = ${id} ORDER BY line`
          return Option.some({ ...header, ref: id, lines })
        })),
      receivingLocation: (siteId) =>
        query(
          sql<{ receiving_location: string }>`SELECT receiving_location FROM sites WHERE site_id = ${siteId}`,
          ([row]) => row.receiving_location
        ),
      addReceived: (ref, line, qty) =>
        run(sql`UPDATE preadvice_lines SET qty_received = qty_received + ${qty}
          WHERE preadvice_ref = ${ref} AND line = ${line}`),
      setStatus: (ref, status) => run(sql`UPDATE preadvices SET status_id = ${status} WHERE id = ${ref}`)
    })
  })
)
