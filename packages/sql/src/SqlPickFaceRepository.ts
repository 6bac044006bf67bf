/**
 * Pick-face settings on @effect/sql, with what each face holds of its SKU: on hand and allocated
 * at the face, and the Open movement tasks bound there, summed by subqueries on the indexes of
 * contents (`contents_key`) and of tasks (`movement_tasks_to`).
 */
import { SqlClient } from "@effect/sql"
import {
  type Content,
  type FaceStock,
  PickFaceRepository,
  type PickFaceWithStock,
  type StoredPickFace
} from "@wms/core"
import { Effect, Layer } from "effect"
import { inTexts } from "./Dialect.js"
import { byBytes, isHeld, lockHolds, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { Prepared } from "./Prepared.js"
import { first, query, returnsRow, rows, run } from "./Query.js"

// 64-bit sums: PostgreSQL returns a BIGINT as a string.
interface StockRow {
  readonly qty: number | string
  readonly qty_allocated: number | string
  readonly inbound: number | string
  readonly replenishing: number | string
}

const toStock = (row: StockRow): FaceStock => ({
  qty: Number(row.qty),
  qty_allocated: Number(row.qty_allocated),
  inbound: Number(row.inbound),
  replenishing: Number(row.replenishing)
})

const toFace = (row: StoredPickFace): StoredPickFace => ({
  site_id: row.site_id,
  sku_id: row.sku_id,
  loc_id: row.loc_id,
  min_qty: row.min_qty,
  max_qty: row.max_qty,
  replenish_multiple: row.replenish_multiple
})

export const layer = Layer.effect(
  PickFaceRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE"), orElse: () => sql.literal("") })
    const forUpdateOfContents = sql.onDialectOrElse({
      pg: () => sql.literal("FOR UPDATE OF c"),
      orElse: () => sql.literal("")
    })
    const faceColumnList = "f.site_id, f.sku_id, f.loc_id, f.min_qty, f.max_qty, f.replenish_multiple"
    const faceColumns = sql.literal(faceColumnList)
    const skuIn = inTexts(sql, "f.sku_id")
    const bytes = sql.onDialectOrElse({ pg: () => "COLLATE \"C\"", orElse: () => "" })
    const prepared = yield* Prepared
    const facesOfSkus = prepared.prepare<StoredPickFace>(
      `SELECT ${faceColumnList} FROM pick_faces f WHERE f.site_id = ? AND ${skuIn.text}
        ORDER BY f.sku_id ${bytes}, f.loc_id ${bytes}`
    )

    /** The face's stock of its SKU, as columns of a row of `pick_faces f`. */
    const stockColumnList = `
      (SELECT CAST(COALESCE(sum(c.qty), 0) AS BIGINT) FROM contents c
        WHERE c.site_id = f.site_id AND c.sku_id = f.sku_id AND c.loc_id = f.loc_id) AS qty,
      (SELECT CAST(COALESCE(sum(c.qty_allocated), 0) AS BIGINT) FROM contents c
        WHERE c.site_id = f.site_id AND c.sku_id = f.sku_id AND c.loc_id = f.loc_id) AS qty_allocated,
      (SELECT CAST(COALESCE(sum(t.qty), 0) AS BIGINT) FROM movement_tasks t
        WHERE t.site_id = f.site_id AND t.to_loc_id = f.loc_id AND t.status_id = 1 AND t.sku_id = f.sku_id)
        AS inbound,
      (SELECT CAST(COALESCE(sum(t.qty), 0) AS BIGINT) FROM movement_tasks t
        WHERE t.site_id = f.site_id AND t.to_loc_id = f.loc_id AND t.status_id = 1 AND t.sku_id = f.sku_id
          AND t.task_type = 'Replenish') AS replenishing`
    const stockColumns = sql.literal(stockColumnList)
    const locIn = inTexts(sql, "f.loc_id")
    const stockAt = prepared.prepare<Pick<StoredPickFace, "sku_id" | "loc_id"> & StockRow>(
      `SELECT f.sku_id, f.loc_id, ${stockColumnList} FROM pick_faces f WHERE f.site_id = ? AND ${locIn.text}`
    )

    const withStock = (row: StoredPickFace & StockRow): PickFaceWithStock => ({ ...toFace(row), ...toStock(row) })

    return PickFaceRepository.of({
      list: (scope, filter, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<StoredPickFace & StockRow>`SELECT ${faceColumns}, ${stockColumns}${total}
            FROM pick_faces f
            JOIN skus s ON s.site_id = f.site_id AND s.sku_id = f.sku_id
            JOIN locations l ON l.site_id = f.site_id AND l.loc_id = f.loc_id
            WHERE ${
              sql.and([
                visibleIn(sql, scope, "s"),
                ...(filter.sku_id === undefined ? [] : [sql`f.sku_id = ${filter.sku_id}`]),
                ...(filter.loc_id === undefined ? [] : [sql`f.loc_id = ${filter.loc_id}`]),
                ...(filter.zone === undefined ? [] : [sql`l.zone = ${filter.zone}`])
              ])
            }
            ORDER BY f.sku_id ${byBytes(sql)}, f.loc_id ${byBytes(sql)} ${windowClause(sql, page)}`),
          withStock
        ),
      find: (siteId, skuId, locId) =>
        first(
          sql<StoredPickFace & StockRow>`SELECT ${faceColumns}, ${stockColumns} FROM pick_faces f
            WHERE f.site_id = ${siteId} AND f.sku_id = ${skuId} AND f.loc_id = ${locId}`,
          withStock
        ),
      findMany: (siteId, pairs) =>
        pairs.length === 0 ? Effect.succeed([]) : rows(
          sql<StoredPickFace>`SELECT ${faceColumns} FROM pick_faces f
            WHERE f.site_id = ${siteId} AND (${
            sql.or(pairs.map((pair) => sql`(f.sku_id = ${pair.sku_id} AND f.loc_id = ${pair.loc_id})`))
          })`,
          toFace
        ),
      // A site without pick faces reads no claims: a wave start stays as cheap as before faces existed.
      allocatedByWave: (siteId, waveId) =>
        Effect.flatMap(
          returnsRow(sql`SELECT 1 AS found FROM pick_faces WHERE site_id = ${siteId} LIMIT 1`),
          (any) =>
            any
              ? rows(
                sql<StoredPickFace>`SELECT ${faceColumns}
                  FROM (SELECT DISTINCT sku_id, from_loc_id FROM claims WHERE wave_id = ${waveId}) k
                  JOIN pick_faces f ON f.site_id = ${siteId} AND f.sku_id = k.sku_id AND f.loc_id = k.from_loc_id
                  ORDER BY f.loc_id ${byBytes(sql)}, f.sku_id ${byBytes(sql)}`,
                toFace
              )
              : Effect.succeed([])
        ),
      ofSkus: (siteId, skuIds) =>
        skuIds.length === 0
          ? Effect.succeed([])
          : rows(facesOfSkus([siteId, skuIn.bind([...new Set(skuIds)])]), toFace),
      lockAt: (siteId, locIds) =>
        locIds.length === 0 ? Effect.succeed([]) : rows(
          sql<StoredPickFace>`SELECT ${faceColumns} FROM pick_faces f
            WHERE f.site_id = ${siteId} AND ${sql.in("f.loc_id", locIds)}
            ORDER BY f.loc_id ${byBytes(sql)}, f.sku_id ${byBytes(sql)} ${forUpdate}`,
          toFace
        ),
      faceStock: (siteId, skuId, locId) =>
        query(
          sql<StockRow>`SELECT ${stockColumns} FROM (SELECT CAST(${siteId} AS TEXT) AS site_id,
            CAST(${skuId} AS TEXT) AS sku_id, CAST(${locId} AS TEXT) AS loc_id) f`,
          ([row]) => toStock(row)
        ),
      stockAt: (siteId, locIds) =>
        locIds.length === 0 ? Effect.succeed([]) : rows(
          stockAt([siteId, locIn.bind([...new Set(locIds)])]),
          (row) => ({ sku_id: row.sku_id, loc_id: row.loc_id, stock: toStock(row) })
        ),
      lockReserve: (siteId, skuIds) =>
        skuIds.length === 0 ? Effect.succeed([]) : query(Effect.gen(function*() {
          // Held stock is no replenishment source (spec §1 H1): the site's holds lock (shared) first.
          yield* lockHolds(sql, siteId, "shared")
          const reserve = yield* sql<Content>`SELECT c.* FROM contents c
            JOIN locations l ON l.site_id = c.site_id AND l.loc_id = c.loc_id AND l.loc_type = 'Storage'
            WHERE c.site_id = ${siteId} AND ${sql.in("c.sku_id", skuIds)}
              AND c.qty - c.qty_allocated - c.qty_tasked_from > 0 AND NOT ${isHeld(sql, "c")}
            ORDER BY c.content_id ${forUpdateOfContents}`
          if (reserve.length === 0) return reserve
          // On PostgreSQL, read the holds again after the locks, as a wave start does.
          return yield* sql.onDialectOrElse({
            pg: () =>
              Effect.map(
                sql<{ content_id: number }>`SELECT content_id FROM contents c
                  WHERE ${sql.in("content_id", reserve.map((content) => content.content_id))} AND ${isHeld(sql, "c")}`,
                (held) => {
                  const ids = new Set(held.map((row) => row.content_id))
                  return reserve.filter((content) => !ids.has(content.content_id))
                }
              ),
            orElse: () => Effect.succeed(reserve)
          })
        })),
      upsert: (face) =>
        run(sql`INSERT INTO pick_faces ${sql.insert({ ...toFace(face) })}
          ON CONFLICT (site_id, sku_id, loc_id) DO UPDATE SET min_qty = excluded.min_qty,
            max_qty = excluded.max_qty, replenish_multiple = excluded.replenish_multiple`),
      remove: (siteId, skuId, locId) =>
        returnsRow(sql`DELETE FROM pick_faces WHERE site_id = ${siteId} AND sku_id = ${skuId} AND loc_id = ${locId}
          RETURNING sku_id`)
    })
  })
)
