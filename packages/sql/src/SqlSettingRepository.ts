/**
 * Installation-wide settings on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { SettingRepository } from "@wms/core"
import { Effect, Layer } from "effect"
import { query } from "./Query.js"

export const layer = Layer.effect(
  SettingRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SettingRepository.of({
      getOrInsert: (key, make) =>
        query(Effect.gen(function*() {
          // The insert loses to a concurrent one without error; the read then sees the winner.
          yield* sql`INSERT INTO settings (key, value) VALUES (${key}, ${make()}) ON CONFLICT (key) DO NOTHING`
          const [row] = yield* sql<{ value: string }>`SELECT value FROM settings WHERE key = ${key}`
          return row.value
        }))
    })
  })
)
