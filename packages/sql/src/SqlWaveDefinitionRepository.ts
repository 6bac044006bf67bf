/**
 * Wave definitions on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type CriteriumId, type PickTypeId, WaveDefinitionRepository, type WaveDefinitionInput } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { windowClause } from "./SqlMasterData.js"

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
        sql<Row>`SELECT ${columns} FROM wave_definitions WHERE site_id = ${siteId}
          ORDER BY id ${windowClause(sql, window)}`.pipe(
          Effect.map((rows) => rows.map(fromRow)),
          Effect.orDie
        ),
      find: (siteId, id) =>
        sql<Row>`SELECT ${columns} FROM wave_definitions WHERE id = ${id} AND site_id = ${siteId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), fromRow)),
          Effect.orDie
        ),
      insert: (siteId, input) =>
        sql<{ id: number }>`INSERT INTO wave_definitions ${
          sql.insert({ site_id: siteId, ...writable(input) })
        } RETURNING id`.pipe(
          Effect.map((rows) => rows[0].id),
          Effect.orDie
        ),
      update: (siteId, id, input) =>
        sql<{ id: number }>`UPDATE wave_definitions SET ${sql.update(writable(input))}
          WHERE id = ${id} AND site_id = ${siteId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      remove: (siteId, id) =>
        sql<{ id: number }>`DELETE FROM wave_definitions WHERE id = ${id} AND site_id = ${siteId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)
