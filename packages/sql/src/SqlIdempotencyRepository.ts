/**
 * Idempotency keys on @effect/sql: one row per caller and key. The row is inserted when a request
 * takes the key and gets its answer in the same transaction, so no other transaction ever sees a
 * key without its answer; a second request with the key waits at the insert for the first's end
 * (on SQLite every writing transaction waits for the one before it anyway).
 */
import { SqlClient } from "@effect/sql"
import { IdempotencyRepository, type KeptRequest } from "@wms/core"
import { Effect, Layer, Option } from "effect"

interface KeyRow {
  readonly request_hash: string
  readonly status: number
  readonly headers: string
  readonly body: string | null
}

export const layer = Layer.effect(
  IdempotencyRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return IdempotencyRepository.of({
      claim: (claim, expiredBefore) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM idempotency_keys
            WHERE user_id = ${claim.userId} AND idempotency_key = ${claim.key} AND created_at < ${expiredBefore}`
          // On PostgreSQL the insert waits while another open transaction holds the key, and then
          // inserts nothing if that one committed it.
          const taken = yield* sql`INSERT INTO idempotency_keys ${
            sql.insert({
              user_id: claim.userId,
              idempotency_key: claim.key,
              request_hash: claim.requestHash,
              created_at: claim.claimedAt
            })
          } ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING user_id`
          if (taken.length > 0) return Option.none<KeptRequest>()
          const rows = yield* sql<KeyRow>`SELECT request_hash, status, headers, body FROM idempotency_keys
            WHERE user_id = ${claim.userId} AND idempotency_key = ${claim.key}`
          const row = rows[0]
          return Option.some<KeptRequest>({
            requestHash: row.request_hash,
            answer: { status: row.status, headers: JSON.parse(row.headers), body: row.body }
          })
        }).pipe(Effect.orDie),
      keep: (userId, key, answer) =>
        sql`UPDATE idempotency_keys
          SET status = ${answer.status}, headers = ${JSON.stringify(answer.headers)}, body = ${answer.body}
          WHERE user_id = ${userId} AND idempotency_key = ${key}`.pipe(Effect.asVoid, Effect.orDie),
      forgetBefore: (before) =>
        sql`DELETE FROM idempotency_keys WHERE created_at < ${before}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
