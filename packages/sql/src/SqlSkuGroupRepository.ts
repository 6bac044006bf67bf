/**
 * SKU groups on @effect/sql, with their ids counted per site in `counters`.
 */
import { SqlClient } from "@effect/sql"
import { type SkuGroup, SkuGroupRepository } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { nextCounterValue } from "./Counters.js"
import { byBytes, lockClause, visibleIn, windowClause } from "./SqlMasterData.js"

const counter = "sku_group"

export const layer = Layer.effect(
  SkuGroupRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal("sku_group_id, description, client_id")

    return SkuGroupRepository.of({
      list: (scope, window) =>
        // Generated ids are numeric strings: shorter first keeps them in numeric order.
        sql<SkuGroup>`SELECT ${columns} FROM sku_groups WHERE ${visibleIn(sql, scope)}
          ORDER BY length(sku_group_id), sku_group_id ${byBytes(sql)} ${windowClause(sql, window)}`.pipe(
          Effect.orDie
        ),
      find: (siteId, skuGroupId, lock) =>
        sql<SkuGroup>`SELECT ${columns} FROM sku_groups
          WHERE site_id = ${siteId} AND sku_group_id = ${skuGroupId} ${lockClause(sql, lock)}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      nextId: (siteId) =>
        nextCounterValue(sql, siteId, counter).pipe(
          Effect.map(String),
          Effect.orDie
        ),
      insert: (owner, group) =>
        sql<{ sku_group_id: string }>`INSERT INTO sku_groups ${
          sql.insert({ site_id: owner.site_id, ...group, client_id: owner.client_id })
        } ON CONFLICT (site_id, sku_group_id) DO NOTHING RETURNING sku_group_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      update: (siteId, skuGroupId, description) =>
        sql<{ sku_group_id: string }>`UPDATE sku_groups SET description = ${description}
          WHERE site_id = ${siteId} AND sku_group_id = ${skuGroupId} RETURNING sku_group_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      isUsed: (siteId, skuGroupId) =>
        sql`SELECT 1 AS used FROM skus WHERE site_id = ${siteId} AND sku_group = ${skuGroupId} LIMIT 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      remove: (siteId, skuGroupId) =>
        sql`DELETE FROM sku_groups WHERE site_id = ${siteId} AND sku_group_id = ${skuGroupId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    })
  })
)
