/**
 * SKU groups on @effect/sql, with their ids counted per site in `counters`.
 */
import { SqlClient } from "@effect/sql"
import { type SkuGroup, SkuGroupRepository } from "@wms/core"
import { Effect, Layer } from "effect"
import { nextCounterValue } from "./Counters.js"
import { byBytes, lockClause, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, query, returnsRow, rows, run } from "./Query.js"

const counter = "sku_group"

export const layer = Layer.effect(
  SkuGroupRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal("sku_group_id, description, client_id")

    return SkuGroupRepository.of({
      list: (scope, window) =>
        // Generated ids are numeric strings: shorter first keeps them in numeric order.
        rows(counted(sql, window, (page, total) =>
          sql<SkuGroup>`SELECT ${columns}${total} FROM sku_groups WHERE ${visibleIn(sql, scope)}
            ORDER BY length(sku_group_id), sku_group_id ${byBytes(sql)} ${windowClause(sql, page)}`)),
      find: (siteId, skuGroupId, lock) =>
        first(sql<SkuGroup>`SELECT ${columns} FROM sku_groups
          WHERE site_id = ${siteId} AND sku_group_id = ${skuGroupId} ${lockClause(sql, lock)}`),
      nextId: (siteId) => query(nextCounterValue(sql, siteId, counter), String),
      insert: (owner, group) =>
        returnsRow(
          sql`INSERT INTO sku_groups ${
            sql.insert({ site_id: owner.site_id, ...group, client_id: owner.client_id })
          } ON CONFLICT (site_id, sku_group_id) DO NOTHING RETURNING sku_group_id`
        ),
      update: (siteId, skuGroupId, description) =>
        returnsRow(sql`UPDATE sku_groups SET description = ${description}
          WHERE site_id = ${siteId} AND sku_group_id = ${skuGroupId} RETURNING sku_group_id`),
      isUsed: (siteId, skuGroupId) =>
        returnsRow(sql`SELECT 1 AS used FROM skus WHERE site_id = ${siteId} AND sku_group = ${skuGroupId} LIMIT 1`),
      remove: (siteId, skuGroupId) =>
        run(sql`DELETE FROM sku_groups WHERE site_id = ${siteId} AND sku_group_id = ${skuGroupId}`)
    })
  })
)
