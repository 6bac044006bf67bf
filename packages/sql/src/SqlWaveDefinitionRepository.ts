/**
 * Wave definitions on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type CriteriumId, type PickTypeId, type WaveDefinitionInput, WaveDefinitionRepository } from "@wms/core"
import { Effect, Layer } from "effect"
import { windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, insertReturningKey, returnsRow, rows } from "./Query.js"

interface Row {
  readonly id: number
  readonly site_id: string
  readonly description: string
  readonly criterium_id: CriteriumId
  readonly value: string | null
  readonly pick_type: PickTypeId
  readonly autostart: number
}

const fromRow = (row: Row) => ({ ...row, autostart: row.autostart === 1 })

const writable = (input: WaveDefinitionInput) => ({
  description: input.description,
  criterium_id: input.criterium_id,
  value: input.value,
  pick_type: input.pick_type,
  autostart: input.autostart ? 1 : 0
})

export const layer = Layer.effect(
  WaveDefinitionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal("id, site_id, description, criterium_id, value, pick_type, autostart")

    return WaveDefinitionRepository.of({
      list: (siteId, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<Row>`SELECT ${columns}${total} FROM wave_definitions WHERE site_id = ${siteId}
              ORDER BY id ${windowClause(sql, page)}`),
          fromRow
        ),
      find: (siteId, id) =>
        first(sql<Row>`SELECT ${columns} FROM wave_definitions WHERE id = ${id} AND site_id = ${siteId}`, fromRow),
      insert: (siteId, input) => insertReturningKey(sql, "wave_definitions", { site_id: siteId, ...writable(input) }),
      update: (siteId, id, input) =>
        returnsRow(sql`UPDATE wave_definitions SET ${sql.update(writable(input))}
          WHERE id = ${id} AND site_id = ${siteId} RETURNING id`),
      remove: (siteId, id) =>
        returnsRow(sql`DELETE FROM wave_definitions WHERE id = ${id} AND site_id = ${siteId} RETURNING id`)
    })
  })
)
