/**
 * SKUs on @effect/sql. Booleans are stored as 0/1.
 */
import { SqlClient } from "@effect/sql"
import { type Sku, type SkuListItem, SkuRepository } from "@wms/core"
import { Effect, Layer } from "effect"
import { inTexts } from "./Dialect.js"
import { byBytes, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { Prepared } from "./Prepared.js"
import { first, query, returnsRow, rows, run } from "./Query.js"

type SkuRow = Omit<Sku, "expiry_sku" | "obsolete" | "new"> & {
  readonly expiry_sku: number
  readonly obsolete: number
  readonly new: number
}

type SkuListRow = Omit<SkuListItem, "expiry_sku"> & { readonly expiry_sku: number }

const toSku = (row: SkuRow): Sku => ({
  ...row,
  expiry_sku: row.expiry_sku === 1,
  obsolete: row.obsolete === 1,
  new: row.new === 1
})

const toRow = (sku: Sku) => ({
  ...sku,
  expiry_sku: sku.expiry_sku ? 1 : 0,
  obsolete: sku.obsolete ? 1 : 0,
  new: sku.new ? 1 : 0
})

export const layer = Layer.effect(
  SkuRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columnList = "sku_id, client_id, description, ean, sku_group, expiry_sku, expiry_days, obsolete, new, " +
      "each_width, each_height, each_depth, each_weight, each_volume, each_value, preferred_putaway_location, " +
      "qty_on_full_pallet, default_receipt_quantity, pick_method"
    const skuIn = inTexts(sql, "sku_id")
    const prepared = yield* Prepared
    const findOne = prepared.prepare<SkuRow>(`SELECT ${columnList} FROM skus WHERE site_id = ? AND sku_id = ?`)
    const findMany = prepared.prepare<SkuRow>(`SELECT ${columnList} FROM skus WHERE site_id = ? AND ${skuIn.text}`)

    return SkuRepository.of({
      list: (scope, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<SkuListRow>`SELECT sku_id, client_id, description, ean,
                (SELECT g.description FROM sku_groups g
                  WHERE g.site_id = skus.site_id AND g.sku_group_id = skus.sku_group) AS sku_group_description,
                expiry_sku, expiry_days${total}
              FROM skus WHERE ${visibleIn(sql, scope)} ORDER BY sku_id ${byBytes(sql)} ${windowClause(sql, page)}`),
          (row): SkuListItem => ({ ...row, expiry_sku: row.expiry_sku === 1 })
        ),
      find: (siteId, skuId) => first(findOne([siteId, skuId]), toSku),
      findMany: (siteId, skuIds) =>
        skuIds.length === 0 ? Effect.succeed(new Map()) : query(
          findMany([siteId, skuIn.bind([...new Set(skuIds)])]),
          (found) => new Map(found.map((row) => [row.sku_id, toSku(row)]))
        ),
      insert: (siteId, sku) =>
        returnsRow(sql`INSERT INTO skus ${sql.insert({ site_id: siteId, ...toRow(sku) })}
          ON CONFLICT (site_id, sku_id) DO NOTHING RETURNING sku_id`),
      update: (siteId, sku) => {
        const { client_id: _client, sku_id: _id, ...fields } = toRow(sku)
        return run(sql`UPDATE skus SET ${sql.update(fields)} WHERE site_id = ${siteId} AND sku_id = ${sku.sku_id}`)
      }
    })
  })
)
