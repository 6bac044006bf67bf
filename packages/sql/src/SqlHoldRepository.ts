/**
 * Holds on @effect/sql (spec §1). What a hold covers is matched at every read (`holdCovers`), so a
 * SKU, lot or location hold covers stock that enters its scope later without a write; a content
 * hold's contents are listed in `hold_contents`.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  type ClaimRow,
  type Content,
  HoldRepository,
  type HoldScope,
  type HoldStatusId,
  type LotMovement,
  type StoredHold,
  type StoredMovementTask,
  TraceReceivedTypes,
  TraceShippedTypes
} from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { holdCovers, isHeld, lockClause, lockHolds, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, insertReturningKey, query, returnsRow, rows, run } from "./Query.js"

interface HoldRow extends Omit<StoredHold, "deallocate" | "qty_covered"> {
  readonly deallocate: number
  readonly qty_covered: number | string
}

const toHold = (row: HoldRow): StoredHold => ({
  ...row,
  status_id: row.status_id as HoldStatusId,
  deallocate: row.deallocate === 1,
  qty_covered: Number(row.qty_covered)
})

export const layer = Layer.effect(
  HoldRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")
    const qtyCovered = sql`(SELECT CAST(COALESCE(sum(c.qty), 0) AS BIGINT) FROM contents c
      WHERE ${holdCovers(sql, "h", "c")}) AS qty_covered`
    const select = (where: Statement.Fragment, tail: Statement.Fragment = sql.literal("")) =>
      sql<HoldRow>`SELECT h.id, h.site_id, h.client_id, h.content_id, h.sku_id, h.tag_id, h.expiry_date, h.loc_id,
          h.reason_code, h.notes, h.status_id, h.deallocate, h.created_by, h.created_at, h.released_by,
          h.released_at, h.release_notes, ${qtyCovered}
        FROM holds h WHERE ${where} ${tail}`

    /** The contents of the site a scope given by value covers (`holdCovers` with the scope's fields). */
    const coveredByScope = (siteId: string, scope: HoldScope) =>
      sql.and([
        sql`c.site_id = ${siteId}`,
        ...(scope.client_id === null ? [] : [sql`c.client_id = ${scope.client_id}`]),
        ...(scope.sku_id === null ? [] : [sql`c.sku_id = ${scope.sku_id}`]),
        ...(scope.tag_id === null ? [] : [sql`c.tag_id = ${scope.tag_id}`]),
        ...(scope.expiry_date === null ? [] : [sql`c.expiry_date = ${scope.expiry_date}`]),
        ...(scope.loc_id === null ? [] : [sql`c.loc_id = ${scope.loc_id}`])
      ])

    return HoldRepository.of({
      list: (scope, filter, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<HoldRow>`SELECT *${total} FROM (${
              select(sql.and([
                visibleIn(sql, scope, "h"),
                sql`h.status_id = ${filter.status_id}`,
                ...(filter.sku_id === undefined ? [] : [sql`h.sku_id = ${filter.sku_id}`]),
                ...(filter.loc_id === undefined ? [] : [sql`h.loc_id = ${filter.loc_id}`]),
                ...(filter.reason_code === undefined ? [] : [sql`h.reason_code = ${filter.reason_code}`])
              ]))
            }) listed ORDER BY id ${windowClause(sql, page)}`),
          toHold
        ),
      find: (scope, holdId, lock) =>
        lock
          ? query(
            Effect.zipRight(
              // The row lock first, then the read: under READ COMMITTED it sees what the lock waited for.
              sql`SELECT id FROM holds h WHERE ${visibleIn(sql, scope, "h")} AND h.id = ${holdId} ${forUpdate}`,
              select(sql`${visibleIn(sql, scope, "h")} AND h.id = ${holdId}`)
            ),
            (found) => Option.map(Option.fromNullable(found[0]), toHold)
          )
          : first(select(sql`${visibleIn(sql, scope, "h")} AND h.id = ${holdId}`), toHold),
      insert: (hold) =>
        insertReturningKey(sql, "holds", {
          ...hold,
          status_id: 24,
          deallocate: hold.deallocate ? 1 : 0
        }),
      coverContents: (holdId, contentIds) =>
        run(
          Effect.forEach(contentIds, (contentId) =>
            sql`INSERT INTO hold_contents (hold_id, content_id) VALUES (${holdId}, ${contentId})
            ON CONFLICT DO NOTHING`, { discard: true })
        ),
      lockHoldsOf: (siteId) => query(lockHolds(sql, siteId, "exclusive"), () => undefined),
      coveredContents: (holdId, lock) =>
        rows(sql<Content>`SELECT c.* FROM contents c JOIN holds h ON h.id = ${holdId}
          WHERE ${holdCovers(sql, "h", "c")} ORDER BY c.content_id ${
          lock ?
            sql.onDialectOrElse({
              pg: () => sql.literal("FOR UPDATE OF c"),
              orElse: () => sql.literal("")
            }) :
            sql.literal("")
        }`),
      openWork: (siteId, on) =>
        query(Effect.gen(function*() {
          const contents = Array.isArray(on)
            ? (on.length === 0 ? sql`FALSE` : sql.in("content_id", on as ReadonlyArray<number>))
            : sql`content_id IN (SELECT c.content_id FROM contents c WHERE ${coveredByScope(siteId, on as HoldScope)})`
          const claims = yield* sql<ClaimRow>`SELECT * FROM claims
            WHERE status = 'allocated' AND ${contents} ORDER BY id`
          const tasks = yield* sql<StoredMovementTask>`SELECT * FROM movement_tasks
            WHERE status_id = 1 AND ${contents} ORDER BY id`
          return { claims, tasks }
        })),
      lotHistory: (scope, lot) =>
        query(Effect.gen(function*() {
          const ofLot = sql.and([
            visibleIn(sql, scope, "c"),
            sql`c.sku_id = ${lot.sku_id}`,
            ...(lot.tag_id === null ? [] : [sql`c.tag_id = ${lot.tag_id}`]),
            ...(lot.expiry_date === null ? [] : [sql`c.expiry_date = ${lot.expiry_date}`])
          ])
          // The lot's expiry date is its contents': the ledger rows are found through them.
          // A return names the order it came back from: the customer and site are read for rows going out only.
          const movements = yield* sql<LotMovement>`SELECT t.transaction_type, t.created_at, t.content_id, t.qty,
              t.order_id, t.line_id, t.notes, o.customer_id, o.to_site
            FROM inventory_transactions t JOIN contents c ON c.content_id = t.content_id
            LEFT JOIN orders o ON t.transaction_type IN ${sql.in(TraceShippedTypes)}
              AND o.site_id = t.site_id AND o.order_id = t.order_id
            WHERE ${ofLot} AND t.transaction_type IN ${sql.in([...TraceReceivedTypes, ...TraceShippedTypes])}
            ORDER BY t.id`
          const contents = yield* sql<Content & { held: number | boolean }>`SELECT c.*,
              CASE WHEN ${isHeld(sql, "c")} THEN 1 ELSE 0 END AS held
            FROM contents c WHERE ${ofLot} AND c.qty > 0 ORDER BY c.content_id`
          return {
            movements,
            contents: contents.map((content) => ({ ...content, held: Number(content.held) === 1 }))
          }
        })),
      release: (holdId, release) =>
        returnsRow(sql`UPDATE holds SET status_id = 14, released_by = ${release.released_by},
            released_at = ${release.released_at}, release_notes = ${release.release_notes}
          WHERE id = ${holdId} AND status_id = 24 RETURNING id`)
    })
  })
)
