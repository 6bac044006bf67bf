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
  type StoredHold,
  type StoredMovementTask
} from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { holdCovers, lockClause, lockHolds, visibleIn, windowClause } from "./Fragments.js"
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
      release: (holdId, release) =>
        returnsRow(sql`UPDATE holds SET status_id = 14, released_by = ${release.released_by},
            released_at = ${release.released_at}, release_notes = ${release.release_notes}
          WHERE id = ${holdId} AND status_id = 24 RETURNING id`)
    })
  })
)
