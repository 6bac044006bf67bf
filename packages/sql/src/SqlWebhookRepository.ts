/**
 * Webhooks and their deliveries on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import {
  type ClaimedDelivery,
  type EventType,
  type StoredDelivery,
  type StoredEvent,
  type StoredWebhook,
  WebhookRepository
} from "@wms/core"
import { Effect, Layer } from "effect"
import { visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, insertReturningKey, query, returnsRow, rows, run } from "./Query.js"

interface WebhookRow extends Omit<StoredWebhook, "enabled"> {
  readonly enabled: number
}

const toWebhook = (row: WebhookRow): StoredWebhook => ({ ...row, enabled: row.enabled === 1 })

interface ClaimRow {
  readonly id: number
  readonly locked_until: string
  readonly attempts: number
  readonly created_at: string
  readonly url: string
  readonly secret: string | null
  readonly event_id: number
  readonly event_type: EventType
  readonly site_id: string
  readonly client_id: string | null
  readonly event_created_at: string
  readonly data: string
}

// Any constant will do: it only keeps two processes' fan-outs (and their unique-index waits) apart.
const fanOutLockKey = 80_061

export const layer = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal("id, site_id, client_id, event_type, url, secret, enabled, created_at")

    const maxEventId = sql<{ max: number }>`SELECT CAST(COALESCE(max(id), 0) AS INTEGER) AS max FROM events`.pipe(
      Effect.map((rows) => rows[0].max)
    )

    // On PostgreSQL ids are drawn before commit, so a visible id may still have a lower one in
    // flight. Every writer of events holds the table's ROW EXCLUSIVE lock from before it draws an
    // id until it ends: once each transaction that held it when the last drawn id was read has
    // ended, every id up to that one is final. Reading pg_locks takes no lock, so no writer ever
    // waits for this (a LOCK TABLE did queue them). SQLite commits one writer at a time, in id order.
    const lastDrawnId = sql<{ last: number | null }>`SELECT CAST(
        pg_sequence_last_value(pg_get_serial_sequence('events', 'id')::regclass) AS INTEGER) AS last`.pipe(
      Effect.map((rows) => rows[0].last ?? 0)
    )
    const eventWriters = sql<{ writer: string }>`SELECT virtualtransaction AS writer FROM pg_locks
      WHERE locktype = 'relation' AND mode = 'RowExclusiveLock' AND relation = 'events'::regclass
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND pid IS DISTINCT FROM pg_backend_pid()`.pipe(
      Effect.map((rows) => new Set(rows.map((row) => row.writer)))
    )
    // The highest id known final (-1 before the first is), and the last id drawn with the writers
    // that may still hold ids up to it.
    let settled = -1
    let pending: { readonly drawn: number; readonly writers: ReadonlySet<string> } | undefined
    const settling = yield* Effect.makeSemaphore(1)
    const pgSettled = settling.withPermits(1)(Effect.gen(function*() {
      if (pending !== undefined) {
        const open = yield* eventWriters
        if ([...pending.writers].some((writer) => open.has(writer))) return settled
        settled = Math.max(settled, pending.drawn)
        pending = undefined
      }
      // The id first, then the writers: a writer that drew an id up to it still holds the lock.
      const drawn = yield* lastDrawnId
      const writers = yield* eventWriters
      if (writers.size === 0) settled = Math.max(settled, drawn)
      else pending = { drawn, writers }
      return settled
    }))
    const settledMax = sql.onDialectOrElse({ pg: () => pgSettled, orElse: () => maxEventId })

    return WebhookRepository.of({
      list: (scope, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<WebhookRow>`SELECT ${columns}${total} FROM webhooks WHERE ${visibleIn(sql, scope)}
              ORDER BY id ${windowClause(sql, page)}`),
          toWebhook
        ),
      find: (id) => first(sql<WebhookRow>`SELECT ${columns} FROM webhooks WHERE id = ${id}`, toWebhook),
      insert: (owner, input, createdAt) =>
        Effect.flatMap(query(maxEventId), (lastEventId) =>
          insertReturningKey(sql, "webhooks", {
            site_id: owner.site_id,
            client_id: owner.client_id,
            event_type: input.event_type,
            url: input.url,
            secret: input.secret,
            enabled: input.enabled ? 1 : 0,
            created_at: createdAt,
            last_event_id: lastEventId
          })),
      update: (id, input) =>
        returnsRow(sql`UPDATE webhooks SET ${
          sql.update({
            event_type: input.event_type,
            url: input.url,
            secret: input.secret,
            enabled: input.enabled ? 1 : 0
          })
        } WHERE id = ${id} RETURNING id`),
      remove: (id) => run(sql`DELETE FROM webhooks WHERE id = ${id}`),
      deliveries: (webhookId, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<StoredDelivery>`SELECT d.event_id, e.event_type, d.status, d.attempts, d.last_status_code,
              d.last_error, d.next_attempt_at, d.delivered_at, d.created_at${total}
            FROM deliveries d JOIN events e ON e.id = d.event_id
            WHERE d.webhook_id = ${webhookId}
            ORDER BY d.event_id DESC ${windowClause(sql, page)}`)
        ),
      settledEventId: (known) =>
        query(Effect.gen(function*() {
          if ((yield* maxEventId) <= known) return known
          return Math.max(known, yield* settledMax)
        })),
      fanOut: (upTo, now) =>
        query(Effect.gen(function*() {
          yield* sql.onDialectOrElse({
            pg: () => sql`SELECT pg_advisory_xact_lock(${sql.literal(String(fanOutLockKey))})`,
            orElse: () => Effect.void
          })
          yield* sql`INSERT INTO deliveries (webhook_id, event_id, status, attempts, next_attempt_at, created_at)
            SELECT w.id, e.id, 'pending', 0, ${now}, ${now}
            FROM webhooks w JOIN events e ON e.site_id = w.site_id AND e.event_type = w.event_type
            WHERE w.enabled = 1 AND e.id > w.last_event_id AND e.id <= ${upTo}
              AND (w.client_id IS NULL OR e.client_id = w.client_id)
            ON CONFLICT (webhook_id, event_id) DO NOTHING`
          yield* sql`UPDATE webhooks SET last_event_id = ${upTo} WHERE last_event_id < ${upTo}`
        })),
      eventsBetween: (after, upTo, limit) =>
        rows(sql<StoredEvent>`SELECT id, event_type, site_id, client_id, created_at, data FROM events
          WHERE id > ${after} AND id <= ${upTo} ORDER BY id LIMIT ${limit}`),
      claim: (now, lockedUntil, limit) =>
        query(Effect.gen(function*() {
          // A read first: an idle poll takes no write lock (SQLite's is the whole database).
          const due = yield* sql`SELECT 1 AS due FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ${now}
            AND (locked_until IS NULL OR locked_until <= ${now}) LIMIT 1`
          if (due.length === 0) return []
          // The outer condition is checked again on the row itself: of two processes racing for
          // one delivery, the second finds it leased and takes nothing.
          const claimed = yield* sql<{ id: number }>`UPDATE deliveries
            SET locked_until = ${lockedUntil}, attempts = attempts + 1
            WHERE id IN (
              SELECT d.id FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id
              WHERE d.status = 'pending' AND w.enabled = 1 AND d.next_attempt_at <= ${now}
                AND (d.locked_until IS NULL OR d.locked_until <= ${now})
                AND d.event_id = (
                  SELECT min(h.event_id) FROM deliveries h WHERE h.webhook_id = d.webhook_id AND h.status = 'pending'
                )
              ORDER BY d.next_attempt_at, d.id
              LIMIT ${limit}
            )
            AND status = 'pending' AND (locked_until IS NULL OR locked_until <= ${now})
            RETURNING id`
          if (claimed.length === 0) return []
          const leased = yield* sql<ClaimRow>`SELECT d.id, d.locked_until, d.attempts, d.created_at, w.url, w.secret,
              e.id AS event_id, e.event_type, e.site_id, e.client_id, e.created_at AS event_created_at, e.data
            FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
            WHERE ${sql.in("d.id", claimed.map((row) => row.id))} AND d.locked_until = ${lockedUntil}`
          return leased.map((row): ClaimedDelivery => ({
            id: row.id,
            lockedUntil: row.locked_until,
            attempts: row.attempts,
            createdAt: row.created_at,
            url: row.url,
            secret: row.secret,
            event: {
              id: row.event_id,
              event_type: row.event_type,
              site_id: row.site_id,
              client_id: row.client_id,
              created_at: row.event_created_at,
              data: row.data
            }
          }))
        })),
      complete: (id, lockedUntil, record) =>
        returnsRow(sql`UPDATE deliveries SET ${
          sql.update({
            status: record.status,
            last_status_code: record.lastStatusCode,
            last_error: record.lastError,
            next_attempt_at: record.nextAttemptAt,
            delivered_at: record.deliveredAt,
            locked_until: null
          })
        } WHERE id = ${id} AND locked_until = ${lockedUntil} RETURNING id`),
      release: (id, lockedUntil) =>
        run(sql`UPDATE deliveries SET locked_until = NULL WHERE id = ${id} AND locked_until = ${lockedUntil}`)
    })
  })
)
