/**
 * Waves, their orders, claimsets and claims (with their tasks) on @effect/sql. Writes of a wave
 * start are batched: a few statements per thousand claims, whatever the wave's size.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import {
  type ClaimRow,
  type ClaimsetRow,
  letsStockOut,
  type LineToAllocate,
  type LocationStatus,
  type OrderToAllocate,
  type ServingKey,
  type StatusId,
  type StockToAllocate,
  type StoredWave,
  WaveRepository,
  type WaveTotals
} from "@wms/core"
import type { CandidateOrder, WaveOrderRow } from "@wms/core"
import { Effect, Layer } from "effect"
import { type BulkInsert, chunked, makeBulkInsert } from "./Batches.js"
import { inIntegers, inTexts } from "./Dialect.js"
import { byBytes, isHeld, lockClause, lockHolds, visibleIn } from "./Fragments.js"
import { Prepared } from "./Prepared.js"
import { first, insertReturningKey, query, rows, run } from "./Query.js"

interface WaveRow extends Omit<StoredWave, "autostart"> {
  readonly autostart: number
}

const toWave = (row: WaveRow): StoredWave => ({ ...row, autostart: row.autostart === 1 })

const waveOrders: BulkInsert = { table: "wave_orders", columns: ["wave_id", "order_ref"] }
const claimsets: BulkInsert = {
  table: "claimsets",
  columns: ["wave_id", "claimset_break", "pick_type", "status"],
  returning: "id, claimset_break"
}
const claims: BulkInsert = {
  table: "claims",
  columns: [
    "site_id",
    "client_id",
    "wave_id",
    "claimset_id",
    "content_id",
    "order_ref",
    "order_id",
    "line_id",
    "sku_id",
    "qty",
    "status",
    "tag_id",
    "from_loc_id",
    "to_loc_id",
    "final_loc_id",
    "created_at"
  ]
}

type OrderHeader = Omit<OrderToAllocate, "lines">

const selectOrderHeaders = `SELECT o.id AS order_ref, o.order_id, o.client_id, o.order_date, o.ship_by_date,
    o.ship_dock, cu.name AS customer_name, ca.name AS carrier_name
  FROM wave_orders wo JOIN orders o ON o.id = wo.order_ref
  LEFT JOIN customers cu ON cu.id = o.customer_id
  LEFT JOIN carriers ca ON ca.id = o.carrier_id`

// Sums are 64-bit (a wave may order more than 2^31 units); PostgreSQL returns a BIGINT as a string.
type Sums<Row, K extends keyof Row> = Omit<Row, K> & { readonly [P in K]: number | string }

export const layer = Layer.effect(
  WaveRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const forUpdate = lockClause(sql, "update")
    const prepared = yield* Prepared
    const bulkInsert = makeBulkInsert(sql, prepared)
    const forUpdateOfOrders = sql.onDialectOrElse({
      pg: () => sql.literal("FOR UPDATE OF o"),
      orElse: () => sql.literal("")
    })
    // Serializes wave creation in a site without blocking the foreign key checks (KEY SHARE) of every
    // insert that names the site, which FOR UPDATE would do: a deadlock with a start waiting on stock.
    const forNoKeyUpdate = sql.onDialectOrElse({
      pg: () => sql.literal("FOR NO KEY UPDATE"),
      orElse: () => sql.literal("")
    })

    // The managed locations among the stock's, locked for share in `loc_id` order on PostgreSQL, so a
    // status change waits for the start. The ids go as one parameter whatever their number; a site
    // without locations answers at once (an uncorrelated EXISTS is evaluated once, before any scan).
    const locationIn = inTexts(sql, "loc_id")
    const lockLocations = prepared.prepare<{ loc_id: string; status: LocationStatus; loc_type: string }>(
      `SELECT loc_id, status, loc_type FROM locations
        WHERE site_id = ? AND ${locationIn.text} AND EXISTS (SELECT 1 FROM locations WHERE site_id = ?)
        ORDER BY loc_id ${sql.onDialectOrElse({ pg: () => "COLLATE \"C\" FOR SHARE", orElse: () => "" })}`
    )

    // The statements a wave start runs for every page of its orders, and every few thousand orders
    // it sets the status of, are `Prepared`: a list of refs is one parameter.
    const refIn = inIntegers(sql, "order_ref")
    const linesOf = prepared.prepare<{ order_ref: number; line: number; sku_id: string; qty: number }>(
      `SELECT order_ref, line, sku_id, qty FROM order_lines WHERE ${refIn.text}`
    )
    const waveOrderIn = inIntegers(sql, "wo.order_ref")
    const headersAmong = prepared.prepare<OrderHeader>(
      `${selectOrderHeaders} WHERE wo.wave_id = ? AND ${waveOrderIn.text} AND o.status_id = 14 ORDER BY o.id`
    )
    const keysAfter = prepared.prepare<ServingKey>(`SELECT o.id AS order_ref, o.order_id, o.order_date, o.ship_by_date
      FROM wave_orders wo JOIN orders o ON o.id = wo.order_ref
      WHERE wo.wave_id = ? AND wo.order_ref > ? AND o.status_id = 14
      ORDER BY o.id LIMIT ? ${sql.onDialectOrElse({ pg: () => "FOR UPDATE OF o", orElse: () => "" })}`)
    const idIn = inIntegers(sql, "id")
    const setOrderStatus = prepared.prepare(`UPDATE orders SET status_id = ? WHERE ${idIn.text}`)

    /** The orders of `headers` with their lines. */
    const withLines = (headers: ReadonlyArray<OrderHeader>) =>
      Effect.map(linesOf([refIn.bind(headers.map((header) => header.order_ref))]), (lines) => {
        // Orders as literals of one shape: a wave may hold 100,000 orders.
        const byOrder = new Map<number, Array<LineToAllocate>>()
        for (const { line, order_ref, qty, sku_id } of lines) {
          const list = byOrder.get(order_ref)
          const item = { line, sku_id, qty }
          if (list === undefined) byOrder.set(order_ref, [item])
          else list.push(item)
        }
        return headers.map((header): OrderToAllocate => ({
          order_ref: header.order_ref,
          order_id: header.order_id,
          client_id: header.client_id,
          order_date: header.order_date,
          ship_by_date: header.ship_by_date,
          ship_dock: header.ship_dock,
          customer_name: header.customer_name,
          carrier_name: header.carrier_name,
          lines: byOrder.get(header.order_ref) ?? []
        }))
      })

    const inIds = <A>(
      ids: ReadonlyArray<A>,
      each: (chunk: ReadonlyArray<A>) => Effect.Effect<unknown, SqlError.SqlError>
    ) => Effect.forEach(chunked(ids, 5_000), each, { discard: true })

    return WaveRepository.of({
      insert: (wave) => insertReturningKey(sql, "waves", { ...wave, autostart: wave.autostart ? 1 : 0 }),
      candidateOrders: (scope) =>
        query(Effect.gen(function*() {
          // Wave creation in a site is serialized on the site's row, so no order joins two waves. The
          // orders taken are locked, so an order delete either ends first or waits for the wave.
          yield* sql`SELECT site_id FROM sites WHERE site_id = ${scope.site_id} ${forNoKeyUpdate}`
          return yield* sql<CandidateOrder>`SELECT o.id AS order_ref, o.order_id, o.client_id, o.order_date,
              o.ship_by_date, cu.name AS customer_name, cu.town AS customer_town, ca.name AS carrier_name
            FROM orders o
            LEFT JOIN customers cu ON cu.id = o.customer_id
            LEFT JOIN carriers ca ON ca.id = o.carrier_id
            WHERE ${visibleIn(sql, scope, "o")} AND o.status_id = 14
              AND NOT EXISTS (SELECT 1 FROM wave_orders wo JOIN waves w ON w.id = wo.wave_id
                WHERE wo.order_ref = o.id AND w.status_id <> 20)
            ORDER BY o.id ${forUpdateOfOrders}`
        })),
      attachOrders: (waveId, orderRefs) =>
        run(bulkInsert(waveOrders, orderRefs, (params, orderRef) => params.push(waveId, orderRef))),
      list: (scope) =>
        rows(sql<WaveRow>`SELECT * FROM waves w WHERE ${visibleIn(sql, scope, "w")} ORDER BY w.id`, toWave),
      find: (scope, waveId) =>
        first(sql<WaveRow>`SELECT * FROM waves w WHERE ${visibleIn(sql, scope, "w")} AND w.id = ${waveId}`, toWave),
      lock: (scope, waveId) =>
        first(
          sql<WaveRow>`SELECT * FROM waves w WHERE ${visibleIn(sql, scope, "w")} AND w.id = ${waveId} ${forUpdate}`,
          toWave
        ),
      totals: (waveId) =>
        query(
          sql<Sums<WaveTotals, "qty_ordered" | "qty_allocated">>`SELECT
              (SELECT CAST(count(*) AS INTEGER) FROM wave_orders WHERE wave_id = ${waveId}) AS order_count,
              (SELECT CAST(COALESCE(sum(l.qty), 0) AS BIGINT) FROM wave_orders wo
                JOIN order_lines l ON l.order_ref = wo.order_ref WHERE wo.wave_id = ${waveId}) AS qty_ordered,
              (SELECT CAST(COALESCE(sum(qty), 0) AS BIGINT) FROM claims WHERE wave_id = ${waveId}) AS qty_allocated`,
          ([row]) => ({ ...row, qty_ordered: Number(row.qty_ordered), qty_allocated: Number(row.qty_allocated) })
        ),
      orders: (waveId) =>
        rows(sql<WaveOrderRow>`SELECT o.order_id, o.order_date, o.status_id, cu.name AS customer_name,
            cu.town AS customer_town, o.ship_by_date, ca.name AS carrier_name, o.ship_dock
          FROM wave_orders wo JOIN orders o ON o.id = wo.order_ref
          LEFT JOIN customers cu ON cu.id = o.customer_id
          LEFT JOIN carriers ca ON ca.id = o.carrier_id
          WHERE wo.wave_id = ${waveId} ORDER BY o.order_id ${byBytes(sql)}`),
      claimsets: (waveId) =>
        rows(
          sql<Sums<ClaimsetRow, "total_qty">>`SELECT cs.id, cs.claimset_break, cs.status, cs.pick_type,
              CAST(count(c.id) AS INTEGER) AS claim_count, CAST(COALESCE(sum(c.qty), 0) AS BIGINT) AS total_qty
            FROM claimsets cs LEFT JOIN claims c ON c.claimset_id = cs.id
            WHERE cs.wave_id = ${waveId}
            GROUP BY cs.id, cs.claimset_break, cs.status, cs.pick_type ORDER BY cs.id`,
          (row) => ({ ...row, total_qty: Number(row.total_qty) })
        ),
      claims: (waveId) => rows(sql<ClaimRow>`SELECT * FROM claims WHERE wave_id = ${waveId} ORDER BY id`),
      ordersToAllocate: (waveId, limit) =>
        query(Effect.flatMap(
          sql<OrderHeader>`${sql.literal(selectOrderHeaders)} WHERE wo.wave_id = ${waveId} AND o.status_id = 14
            ORDER BY o.id ${limit === undefined ? sql.literal("") : sql`LIMIT ${limit}`} ${forUpdateOfOrders}`,
          withLines
        )),
      orderKeysToAllocate: (waveId, afterRef, limit) => rows(keysAfter([waveId, afterRef, limit])),
      skusToAllocate: (waveId) =>
        query(
          sql`SELECT DISTINCT l.sku_id FROM wave_orders wo JOIN orders o ON o.id = wo.order_ref
            JOIN order_lines l ON l.order_ref = o.id WHERE wo.wave_id = ${waveId} AND o.status_id = 14`.values,
          (skus) => skus.map(([skuId]) => skuId as string)
        ),
      ordersToAllocateAmong: (waveId, orderRefs) =>
        query(Effect.flatMap(headersAmong([waveId, waveOrderIn.bind(orderRefs)]), withLines)),
      lockStock: (siteId, skuIds, alsoContent) =>
        query(Effect.gen(function*() {
          // The site's holds lock (shared) before the contents: a hold being made covers what it covers
          // before this reads it, or after this commits (spec §1 H1).
          yield* lockHolds(sql, siteId, "shared")
          let stock: Array<StockToAllocate> = []
          for (const chunk of chunked(skuIds, 5_000)) {
            if (chunk.length === 0) continue
            // Rows are locked in content order, so two starts that share stock never deadlock. Held
            // stock is not free (spec §1 H1).
            stock.push(
              ...(yield* sql<StockToAllocate>`SELECT content_id, sku_id, client_id, loc_id, tag_id, expiry_date,
                  created_at, qty, qty_allocated, qty_tasked_from
                FROM contents c
                WHERE site_id = ${siteId} AND ${sql.in("sku_id", chunk)}
                  AND ((qty - qty_allocated - qty_tasked_from > 0 AND NOT ${isHeld(sql, "c")})
                    ${alsoContent === undefined ? sql.literal("") : sql`OR content_id = ${alsoContent}`})
                ORDER BY content_id ${forUpdate}`)
            )
          }
          if (stock.length === 0) return stock
          // On PostgreSQL the statement above judged the holds as of its start: one a hold's creation
          // deallocated (and so locked) is read again, now that its hold committed.
          const heldNow = yield* sql.onDialectOrElse({
            pg: () =>
              Effect.map(
                sql<{ content_id: number }>`SELECT content_id FROM contents c
                  WHERE ${sql.in("content_id", stock.map((content) => content.content_id))} AND ${isHeld(sql, "c")}`,
                (rows) => new Set(rows.map((row) => row.content_id))
              ),
            orElse: () => Effect.succeed(new Set<number>())
          })
          if (heldNow.size > 0) {
            stock = stock.filter((content) => !heldNow.has(content.content_id) || content.content_id === alsoContent)
          }
          // After the contents, as every writer locks them: stock at a location that lets no stock out
          // (blocked out, blocked, being counted) is not allocatable.
          const locations = yield* lockLocations([
            siteId,
            locationIn.bind([...new Set(stock.map((content) => content.loc_id))]),
            siteId
          ])
          // A Quarantine location is never a source for allocation, held or not (spec §1 H1).
          const closed = new Set(
            locations.filter((location) => !letsStockOut(location.status) || location.loc_type === "Quarantine")
              .map((location) => location.loc_id)
          )
          return closed.size === 0 ? stock : stock.filter((content) => !closed.has(content.loc_id))
        })),
      defaultDock: (siteId) =>
        query(
          sql<{ default_dock: string }>`SELECT default_dock FROM sites WHERE site_id = ${siteId}`,
          ([row]) => row.default_dock
        ),
      insertClaimsets: (waveId, sets) =>
        query(
          bulkInsert<typeof sets[number], { id: number; claimset_break: string }>(
            claimsets,
            sets,
            (params, set) => params.push(waveId, set.claimset_break, set.pick_type, "released")
          ),
          // Breaks are unique within a wave, so the returned rows map back by break, in any order.
          (inserted) => {
            const ids = new Map(inserted.map((row) => [row.claimset_break, row.id]))
            return sets.map((set) => ids.get(set.claimset_break)!)
          }
        ),
      insertClaims: (claimRows) =>
        run(bulkInsert(claims, claimRows, (params, claim) =>
          params.push(
            claim.site_id,
            claim.client_id,
            claim.wave_id,
            claim.claimset_id,
            claim.content_id,
            claim.order_ref,
            claim.order_id,
            claim.line_id,
            claim.sku_id,
            claim.qty,
            claim.status,
            claim.tag_id,
            claim.from_loc_id,
            claim.to_loc_id,
            claim.final_loc_id,
            claim.created_at
          ))),
      setOrderStatuses: (statuses) =>
        query(Effect.suspend(() => {
          const byStatus = new Map<StatusId, Array<number>>()
          for (const [ref, status] of statuses) {
            const refs = byStatus.get(status)
            if (refs === undefined) byStatus.set(status, [ref])
            else refs.push(ref)
          }
          return Effect.forEach(byStatus, ([status, refs]) => setOrderStatus([status, idIn.bind(refs)]), {
            discard: true
          })
        })),
      setStatus: (waveId, status) => run(sql`UPDATE waves SET status_id = ${status} WHERE id = ${waveId}`),
      lockClaims: (of) =>
        rows(
          "waveId" in of
            ? Effect.zipRight(
              // The orders before their claims, as an order delete locks them: the other way round,
              // a wave delete and the delete of one of its orders each wait for the other.
              sql`SELECT o.id FROM wave_orders wo JOIN orders o ON o.id = wo.order_ref
              WHERE wo.wave_id = ${of.waveId} ORDER BY o.id ${forUpdateOfOrders}`,
              sql<ClaimRow>`SELECT * FROM claims WHERE wave_id = ${of.waveId} ORDER BY id ${forUpdate}`
            )
            : sql<ClaimRow>`SELECT * FROM claims WHERE order_ref = ${of.orderRef} ORDER BY id ${forUpdate}`
        ),
      deleteClaims: (claimIds) =>
        query(Effect.gen(function*() {
          const waveIds = new Set<number>()
          yield* inIds(claimIds, (chunk) =>
            Effect.map(
              sql<{ wave_id: number }>`DELETE FROM claims WHERE ${sql.in("id", chunk)} RETURNING wave_id`,
              (rows) => rows.forEach((row) => waveIds.add(row.wave_id))
            ))
          // A claimset with no claim left is gone too.
          yield* inIds([...waveIds], (chunk) =>
            sql`DELETE FROM claimsets WHERE ${sql.in("wave_id", chunk)}
              AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.claimset_id = claimsets.id)`)
        })),
      remove: (waveId) =>
        query(Effect.gen(function*() {
          yield* sql`DELETE FROM claimsets WHERE wave_id = ${waveId}`
          yield* sql`DELETE FROM wave_orders WHERE wave_id = ${waveId}`
          yield* sql`DELETE FROM waves WHERE id = ${waveId}`
        }))
    })
  })
)
