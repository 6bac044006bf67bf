/**
 * Stock contents, the ledger and lost-and-found items on @effect/sql.
 */
import { SqlClient, type Statement } from "@effect/sql"
import {
  type Content,
  type ContentWithDescription,
  type HeldBy,
  InventoryRepository,
  type LedgerEntry,
  type LostAndFoundItem
} from "@wms/core"
import { Effect, Layer } from "effect"
import { type BulkInsert, chunked, makeBulkInsert, type ParameterList, rowsPerStatement } from "./Batches.js"
import { nextCounterValue, takeCounterValues } from "./Counters.js"
import { inIntegers, integerRows } from "./Dialect.js"
import { heldByIds, holdCoversText, lockClause, visibleIn } from "./Fragments.js"
import { Prepared } from "./Prepared.js"
import { first, insertReturningKey, query, rows, run } from "./Query.js"

/** The Active holds covering each content, by content id, from rows in content and hold order. */
const byContent = (found: ReadonlyArray<HeldBy & { readonly content_id: number }>) => {
  const held = new Map<number, Array<HeldBy>>()
  for (const { content_id, hold_id, reason_code } of found) {
    const list = held.get(content_id)
    if (list === undefined) held.set(content_id, [{ hold_id, reason_code }])
    else list.push({ hold_id, reason_code })
  }
  return held
}

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
    "notes",
    "from_content_id",
    "reason_code"
  ]
}

const contents: BulkInsert = {
  table: "contents",
  columns: [
    "site_id",
    "client_id",
    "sku_id",
    "loc_id",
    "tag_id",
    "expiry_date",
    "qty",
    "qty_allocated",
    "qty_tasked_from",
    "created_at"
  ],
  returning: "content_id"
}

/** The tag id of a value of the site's tag counter. */
const tagId = (n: number) => `T${String(n).padStart(8, "0")}`

const pushContent = (params: ParameterList, content: Omit<Content, "content_id">) =>
  params.push(
    content.site_id,
    content.client_id,
    content.sku_id,
    content.loc_id,
    content.tag_id,
    content.expiry_date,
    content.qty,
    content.qty_allocated,
    content.qty_tasked_from,
    content.created_at
  )

const withHolds = ({ hold_ids, ...content }: ContentWithDescription & { hold_ids: string | null }) => ({
  ...content,
  holds: hold_ids === null ? [] : hold_ids.split(",").map(Number).sort((a, b) => a - b)
})

export const layer = Layer.effect(
  InventoryRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")
    const forUpdateText = sql.onDialectOrElse({ pg: () => "FOR UPDATE", orElse: () => "" })
    const prepared = yield* Prepared
    const bulkInsert = makeBulkInsert(sql, prepared)
    const quantities = integerRows(sql, ["content_id", "qty", "qty_allocated", "qty_tasked_from"])
    const setQuantitiesOf = prepared.prepare(`${quantities.with} UPDATE contents SET qty = v.qty,
      qty_allocated = v.qty_allocated, qty_tasked_from = v.qty_tasked_from FROM v
      WHERE contents.content_id = v.content_id`)
    // One content (a task of one move) needs no table of rows.
    const setQuantitiesOfOne = prepared.prepare(`UPDATE contents SET qty = ?, qty_allocated = ?, qty_tasked_from = ?
      WHERE content_id = ?`)

    // The statements of a move's create and confirm, fixed texts: one per scope kind or key shape.
    const lockingContent = {
      site: prepared.prepare<Content>(`SELECT * FROM contents WHERE site_id = ? AND content_id = ? ${forUpdateText}`),
      client: prepared.prepare<Content>(
        `SELECT * FROM contents WHERE site_id = ? AND client_id = ? AND content_id = ? ${forUpdateText}`
      )
    }
    const keyed = (tag: string) =>
      prepared.prepare<Content>(`SELECT * FROM contents WHERE site_id = ? AND client_id IS NOT DISTINCT FROM ?
        AND sku_id = ? AND loc_id = ? AND ${tag} AND expiry_date IS NOT DISTINCT FROM ?
        ORDER BY content_id LIMIT 1 ${forUpdateText}`)
    const lockingContentAt = { anyTag: keyed("TRUE"), tag: keyed("tag_id = ?") }
    const heldIn = inIntegers(sql, "c.content_id")
    const holdsOnContents = prepared.prepare<HeldBy & { content_id: number }>(
      `SELECT c.content_id, h.id AS hold_id, h.reason_code
        FROM contents c JOIN holds h ON ${holdCoversText("h", "c")}
        WHERE ${heldIn.text} ORDER BY c.content_id, h.id`
    )
    // The content holds of one content that another does not have yet, given to it in one statement.
    const carryingHolds = prepared.prepare<HeldBy>(`INSERT INTO hold_contents (hold_id, content_id)
      SELECT h.id, CAST(? AS INTEGER) FROM hold_contents hc JOIN holds h ON h.id = hc.hold_id
        WHERE hc.content_id = ? AND h.status_id = 24
          AND NOT EXISTS (SELECT 1 FROM hold_contents x WHERE x.content_id = ? AND x.hold_id = h.id)
      RETURNING hold_id, (SELECT r.reason_code FROM holds r WHERE r.id = hold_contents.hold_id) AS reason_code`)

    // With the ids of the Active holds covering each content, by id (spec §1 H6).
    const contentsWithDescription = (where: Statement.Fragment) =>
      sql<ContentWithDescription & { hold_ids: string | null }>`SELECT c.content_id, c.site_id, c.client_id, c.sku_id,
          c.loc_id, c.tag_id, c.expiry_date, c.qty, c.qty_allocated, c.qty_tasked_from, c.created_at, s.description,
          ${heldByIds(sql, "c")} AS hold_ids
        FROM contents c LEFT JOIN skus s ON s.site_id = c.site_id AND s.sku_id = c.sku_id
        WHERE ${where} ORDER BY c.content_id`

    const lostAndFound = (where: Statement.Fragment) =>
      sql<LostAndFoundItem & { description: string | null }>`SELECT l.*, s.description
        FROM lost_and_found l LEFT JOIN skus s ON s.site_id = l.site_id AND s.sku_id = l.sku_id
        WHERE ${where} ORDER BY l.id`

    return InventoryRepository.of({
      listContents: (scope) =>
        rows(contentsWithDescription(sql`${visibleIn(sql, scope, "c")} AND c.qty > 0`), withHolds),
      findContent: (scope, contentId) =>
        first(contentsWithDescription(sql`${visibleIn(sql, scope, "c")} AND c.content_id = ${contentId}`), withHolds),
      listContentsAt: (scope, locId) =>
        rows(sql<Content>`SELECT * FROM contents c
          WHERE ${visibleIn(sql, scope, "c")} AND c.loc_id = ${locId} AND c.qty > 0 ORDER BY c.content_id`),
      lockContent: (scope, contentId) =>
        first(
          scope.client_id === null
            ? lockingContent.site([scope.site_id, contentId])
            : lockingContent.client([scope.site_id, scope.client_id, contentId])
        ),
      lockContentAt: (owner, key) =>
        first(
          key.tag_id === null
            ? lockingContentAt.anyTag([owner.site_id, owner.client_id, key.sku_id, key.loc_id, key.expiry_date])
            : lockingContentAt.tag([
              owner.site_id,
              owner.client_id,
              key.sku_id,
              key.loc_id,
              key.tag_id,
              key.expiry_date
            ])
        ),
      insertContent: (content) =>
        query(
          bulkInsert<typeof content, { content_id: number }>(contents, [content], pushContent),
          ([inserted]) => inserted.content_id
        ),
      insertContents: (fresh) =>
        query(
          bulkInsert<typeof fresh[number], { content_id: number }>(contents, fresh, pushContent),
          // As the tasks' insert: a statement numbers its rows in VALUES order, the chunks run in order.
          (inserted) => inserted.map((row) => row.content_id).sort((a, b) => a - b)
        ),
      setQuantities: (contentId, q) => run(setQuantitiesOfOne([q.qty, q.qty_allocated, q.qty_tasked_from, contentId])),
      setQuantitiesOf: (changes) => {
        const rows = [...changes].map(([id, q]) => [id, q.qty, q.qty_allocated, q.qty_tasked_from])
        if (rows.length === 0) return Effect.void
        if (rows.length === 1) {
          const [[id, qty, allocated, taskedFrom]] = rows
          return run(setQuantitiesOfOne([qty, allocated, taskedFrom, id]))
        }
        return run(setQuantitiesOf(quantities.bind(rows)))
      },
      nextTagId: (siteId) => query(nextCounterValue(sql, siteId, "tag"), tagId),
      nextTagIds: (siteId, count) =>
        count === 0 ? Effect.succeed([]) : query(
          takeCounterValues(sql, siteId, "tag", count),
          (last) => Array.from({ length: count }, (_, i) => tagId(last - count + 1 + i))
        ),
      appendTransaction: (entry) => insertReturningKey(sql, "inventory_transactions", entry),
      appendTransactions: (entries) =>
        run(bulkInsert(transactions, entries, (params, entry) =>
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
            entry.notes,
            entry.from_content_id,
            entry.reason_code
          ))),
      changeAllocation: (changes) =>
        query(Effect.forEach(
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
                return yield* Effect.dieMessage(
                  `allocation change refused for ${chunk.length - updated.length} contents`
                )
              }
            }),
          { discard: true }
        )),
      holdsOn: (contentIds) =>
        contentIds.length === 0
          ? Effect.succeed(new Map())
          : query(holdsOnContents([heldIn.bind(contentIds)]), byContent),
      carryContentHolds: (from, to) =>
        query(carryingHolds([to, from, to]), (carried) => [...carried].sort((a, b) => a.hold_id - b.hold_id)),
      listTransactions: (scope) =>
        rows(sql<LedgerEntry>`SELECT * FROM inventory_transactions t
          WHERE ${visibleIn(sql, scope, "t")} ORDER BY t.id`),
      findTransaction: (scope, id) =>
        first(sql<LedgerEntry>`SELECT * FROM inventory_transactions t
          WHERE ${visibleIn(sql, scope, "t")} AND t.id = ${id}`),
      insertLostAndFound: (item) => insertReturningKey(sql, "lost_and_found", item),
      listLostAndFound: (scope) => rows(lostAndFound(visibleIn(sql, scope, "l"))),
      findLostAndFound: (scope, id) => first(lostAndFound(sql`${visibleIn(sql, scope, "l")} AND l.id = ${id}`))
    })
  })
)
