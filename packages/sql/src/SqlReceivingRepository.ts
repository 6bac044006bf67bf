/**
 * Receiving's view of pre-advices on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type PreAdviceToReceive, ReceivingRepository } from "@wms/core"
import type { LineToReceive } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { integerRows } from "./Dialect.js"
import { lockClause, visibleIn } from "./Fragments.js"
import { Prepared } from "./Prepared.js"
import { query, run } from "./Query.js"

type HeaderRow = Omit<PreAdviceToReceive, "lines" | "ref" | "transfer"> & {
  readonly id: number
  readonly transfer_order_id: string | null
  readonly from_site: string | null
}

export const layer = Layer.effect(
  ReceivingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")
    const received = integerRows(sql, ["line", "qty"])
    const addReceivedLines = (yield* Prepared).prepare(`${received.with} UPDATE preadvice_lines
      SET qty_received = qty_received + v.qty FROM v
      WHERE preadvice_lines.preadvice_ref = ? AND preadvice_lines.line = v.line`)

    return ReceivingRepository.of({
      lockPreAdvice: (scope, preAdviceId) =>
        query(Effect.gen(function*() {
          const headers = yield* sql<HeaderRow>`
            SELECT id, pre_advice_id, client_id, status_id, transfer_order_id, from_site FROM preadvices
            WHERE ${visibleIn(sql, scope)} AND pre_advice_id = ${preAdviceId} ${forUpdate}`
          if (headers.length === 0) return Option.none()
          const { from_site, id, transfer_order_id, ...header } = headers[0]
          const lines = yield* sql<LineToReceive>`SELECT line, sku_id, qty, qty_received, client_id, tag_id,
              expiry_date, COALESCE(qty_lost, 0) AS qty_lost
            FROM preadvice_lines WHERE preadvice_ref = ${id} ORDER BY line`
          const transfer = transfer_order_id === null || from_site === null
            ? null
            : { order_id: transfer_order_id, from_site }
          return Option.some({ ...header, ref: id, transfer, lines })
        })),
      receivingLocation: (siteId) =>
        query(
          sql<{ receiving_location: string }>`SELECT receiving_location FROM sites WHERE site_id = ${siteId}`,
          ([row]) => row.receiving_location
        ),
      addReceivedLines: (ref, lines) =>
        lines.size === 0 ? Effect.void : run(addReceivedLines([...received.bind([...lines]), ref])),
      setStatus: (ref, status) => run(sql`UPDATE preadvices SET status_id = ${status} WHERE id = ${ref}`)
    })
  })
)
