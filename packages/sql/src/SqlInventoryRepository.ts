/**
 * Stock contents, the ledger and lost-and-found items on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { type Content, type ContentWithDescription, InventoryRepository, type LedgerEntry, type LostAndFoundItem } from "@wms/core"
import type { Scope } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { type BulkInsert, chunked, makeBulkInsert, rowsPerStatement } from "./Batches.js"
import { nextCounterValue } from "./Counters.js"
import { lockClause } from "./SqlMasterData.js"

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

const transactions: BulkInsert = {
  table: "inventory_transactions",
  columns: [
    "site_id",
    "client_id",
    "created_at",
    "transaction_type",
    "content_id",
    "from_loc_id",
    "to_loc_id",
    "final_loc_id",
    "sku_id",
    "qty",
    "tag_id",
    "order_id",
    "line_id",
    "notes"
  ]
}

export const layer = Layer.effect(
  InventoryRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")
    const bulkInsert = makeBulkInsert(sql)

    /** The rows of table alias `t` that a scope may see. */
    const visible = (t: string, scope: Scope) =>
      scope.client_id === null
        ? sql`${sql(t)}.site_id = ${scope.site_id}`
        : sql`${sql(t)}.site_id = ${scope.site_id} AND ${sql(t)}.client_id = ${scope.client_id}`

    const contentsWithDescription = (where: ReturnType<typeof visible>) =>
      sql<ContentWithDescription>`SELECT c.content_id, c.site_id, c.client_id, c.sku_id, c.loc_id, c.tag_id,
          c.expiry_date, c.qty, c.qty_allocated, c.qty_tasked_from, c.created_at, s.description
        FROM contents c LEFT JOIN skus s ON s.site_id = c.site_id AND s.sku_id = c.sku_id
        WHERE ${where} ORDER BY c.content_id`

    const lostAndFound = (where: ReturnType<typeof visible>) =>
      sql<LostAndFoundItem & { description: string | null }>`SELECT l.*, s.description
        FROM lost_and_found l LEFT JOIN skus s ON s.site_id = l.site_id AND s.sku_id = l.sku_id
        WHERE ${where} ORDER BY l.id`

    return InventoryRepository.of({
      listContents: (scope) =>
        contentsWithDescription(sql`${visible("c", scope)} AND c.qty > 0`).pipe(
          Effect.orDie
        ),
      findContent: (scope, contentId) =>
        contentsWithDescription(sql`${visible("c", scope)} AND c.content_id = ${contentId}`).pipe(
          Effect.map(first),
          Effect.orDie
        ),
      lockContent: (scope, contentId) =>
        sql<Content>`SELECT * FROM contents c WHERE ${visible("c", scope)} AND c.content_id = ${contentId} ${forUpdate}`
          .pipe(Effect.map(first), Effect.orDie),
      lockContentAt: (owner, key) =>
        sql<Content>`SELECT * FROM contents WHERE site_id = ${owner.site_id}
          AND ${owner.client_id === null ? sql`client_id IS NULL` : sql`client_id = ${owner.client_id}`}
          AND sku_id = ${key.sku_id} AND loc_id = ${key.loc_id}
          AND ${key.tag_id === null ? sql`TRUE` : sql`tag_id = ${key.tag_id}`}
          AND ${key.expiry_date === null ? sql`expiry_date IS NULL` : sql`expiry_date = ${key.expiry_date}`}
          ORDER BY content_id LIMIT 1 ${forUpdate}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      insertContent: (content) =>
        sql<{ content_id: number }>`INSERT INTO contents ${sql.insert(content)} RETURNING content_id`.pipe(
          Effect.map((rows) => rows[0].content_id),
          Effect.orDie
        ),
      setQuantities: (contentId, q) =>
        sql`UPDATE contents SET qty = ${q.qty}, qty_allocated = ${q.qty_allocated},
          qty_tasked_from = ${q.qty_tasked_from} WHERE content_id = ${contentId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      nextTagId: (siteId) =>
        nextCounterValue(sql, siteId, "tag").pipe(
          Effect.map((n) => `T${String(n).padStart(8, "0")}`),
          Effect.orDie
        ),
      appendTransaction: (entry) =>
        sql<{ id: number }>`INSERT INTO inventory_transactions ${sql.insert(entry)} RETURNING id`.pipe(
          Effect.map((rows) => rows[0].id),
          Effect.orDie
        ),
      appendTransactions: (entries) =>
        bulkInsert(transactions, entries, (params, entry) =>
          params.push(
            entry.site_id,
            entry.client_id,
            entry.created_at,
            entry.transaction_type,
            entry.content_id,
            entry.from_loc_id,
            entry.to_loc_id,
            entry.final_loc_id,
            entry.sku_id,
            entry.qty,
            entry.tag_id,
            entry.order_id,
            entry.line_id,
            entry.notes
          )).pipe(Effect.asVoid, Effect.orDie),
      changeAllocation: (changes) =>
        Effect.forEach(
          chunked(
            [...changes].filter(([, delta]) => delta !== 0).sort(([a], [b]) => a - b),
            rowsPerStatement(2)
          ),
          (chunk) =>
            Effect.gen(function*() {
              // The rows are locked in content order first, as a wave start locks them: an UPDATE
              // alone locks them in plan order and deadlocks with a start that holds some of them.
              yield* sql`SELECT content_id FROM contents
                WHERE ${sql.in("content_id", chunk.map(([id]) => id))} ORDER BY content_id ${forUpdate}`
              const values = sql.join(", ", false)(
                chunk.map(([id, delta]) => sql`(CAST(${id} AS INTEGER), CAST(${delta} AS INTEGER))`)
              )
              // The stock rule is the guard of the statement itself: a row that would break it is not
              // updated, and a short count means a caller's lock failed.
              const updated = yield* sql<{ content_id: number }>`UPDATE contents
                SET qty_allocated = qty_allocated + v.column2
                FROM (VALUES ${values}) AS v
                WHERE contents.content_id = v.column1
                  AND contents.qty_allocated + v.column2 >= 0
                  AND contents.qty_allocated + v.column2 + contents.qty_tasked_from <= contents.qty
                RETURNING contents.content_id`
              if (updated.length !== chunk.length) {
                return yield* Effect.dieMessage(`allocation change refused for ${chunk.length - updated.length} contents`)
              }
            }),
          { discard: true }
        ).pipe(Effect.orDie),
      listTransactions: (scope) =>
        sql<LedgerEntry>`SELECT * FROM inventory_transactions t WHERE ${visible("t", scope)} ORDER BY t.id`.pipe(
          Effect.orDie
        ),
      findTransaction: (scope, id) =>
        sql<LedgerEntry>`SELECT * FROM inventory_transactions t WHERE ${visible("t", scope)} AND t.id = ${id}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      insertLostAndFound: (item) =>
        sql<{ id: number }>`INSERT INTO lost_and_found ${sql.insert(item)} RETURNING id`.pipe(
          Effect.map((rows) => rows[0].id),
          Effect.orDie
        ),
      listLostAndFound: (scope) =>
        lostAndFound(visible("l", scope)).pipe(Effect.orDie),
      findLostAndFound: (scope, id) =>
        lostAndFound(sql`${visible("l", scope)} AND l.id = ${id}`).pipe(
          Effect.map(first),
          Effect.orDie
        )
    })
  })
)
