/**
 * Orders and order lines on @effect/sql. Reads are single statements (one row per order, its lines
 * aggregated as JSON), so a list costs one query however many orders it holds, and sees one snapshot.
 */
import { SqlClient } from "@effect/sql"
import { type OrderLineRow, OrderRepository, type OrderRow, type Scope, type StoredOrder } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { chunked } from "./Batches.js"

// An order's lines as a JSON array of `[line, sku_id, qty, qty_picked, qty_shipped]`: one row per
// order reads far fewer cells than a join repeating the header on every line.
type OrderRowWithLines = OrderRow & { readonly lines: string | null }

type LineTuple = readonly [number, string, number, number, number]

// Bound parameters per statement stay far below SQLite's (32766) and PostgreSQL's (65535) limits.
const chunkSize = 500

const chunks = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const result: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += chunkSize) result.push(items.slice(i, i + chunkSize))
  return result
}

const toStored = ({ lines, ...header }: OrderRowWithLines): StoredOrder => ({
  header,
  lines: lines === null ? [] : (JSON.parse(lines) as ReadonlyArray<LineTuple>).map(
    ([line, sku_id, qty, qty_picked, qty_shipped]): OrderLineRow => ({ line, sku_id, qty, qty_picked, qty_shipped })
  )
})

export const layer = Layer.effect(
  OrderRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const ownedBy = (alias: string, scope: Scope) =>
      scope.client_id === null
        ? sql`${sql(alias)}.site_id = ${scope.site_id}`
        : sql`${sql(alias)}.site_id = ${scope.site_id} AND ${sql(alias)}.client_id = ${scope.client_id}`

    const headerColumns = sql.literal(`o.id AS ref, o.order_id, o.client_id, o.order_date, o.status_id,
      o.customer_id, c.name AS customer_name, c.town AS customer_town, o.ship_by_date,
      k.name AS carrier_name, o.ship_dock, o.created_at, o.created_by`)
    const lineValues = "l.line, l.sku_id, l.qty, l.qty_picked, l.qty_shipped"
    const linesColumn = sql.literal(`(SELECT ${
      sql.onDialectOrElse({
        pg: () => `CAST(json_agg(json_build_array(${lineValues}) ORDER BY l.line) AS TEXT)`,
        orElse: () => `json_group_array(json_array(${lineValues}) ORDER BY l.line)`
      })
    } FROM order_lines l WHERE l.order_ref = o.id) AS lines`)
    const joins = sql.literal(`LEFT JOIN customers c ON c.id = o.customer_id
      LEFT JOIN carriers k ON k.id = o.carrier_id`)

    return OrderRepository.of({
      list: (scope, withLines) =>
        sql<OrderRowWithLines>`SELECT ${headerColumns}, ${withLines ? linesColumn : sql.literal("NULL AS lines")}
          FROM orders o ${joins} WHERE ${ownedBy("o", scope)} ORDER BY o.id`.pipe(
          Effect.map((rows) => rows.map(toStored)),
          Effect.orDie
        ),
      find: (scope, orderId) =>
        sql<OrderRowWithLines>`SELECT ${headerColumns}, ${linesColumn} FROM orders o ${joins}
          WHERE ${ownedBy("o", scope)} AND o.order_id = ${orderId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toStored)),
          Effect.orDie
        ),
      findMany: (refs) =>
        Effect.forEach(chunked(refs, 5_000), (chunk) =>
          sql<OrderRowWithLines>`SELECT ${headerColumns}, ${linesColumn} FROM orders o ${joins}
            WHERE ${sql.in("o.id", chunk)} ORDER BY o.id`).pipe(
          Effect.map((groups) => groups.flat().map(toStored)),
          Effect.orDie
        ),
      insert: (order) =>
        sql<{ id: number }>`INSERT INTO orders ${
          sql.insert({
            site_id: order.owner.site_id,
            client_id: order.owner.client_id,
            order_id: order.order_id,
            order_date: order.order_date,
            status_id: order.status_id,
            customer_id: order.customer_id,
            ship_by_date: order.ship_by_date,
            carrier_id: order.carrier_id,
            ship_dock: order.ship_dock,
            created_at: order.created_at,
            created_by: order.created_by
          })
        } ON CONFLICT (site_id, order_id) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.id)),
          Effect.orDie
        ),
      update: (ref, changes) =>
        (Object.keys(changes).length === 0
          ? sql<{ id: number }>`SELECT id FROM orders WHERE id = ${ref}`
          : sql<{ id: number }>`UPDATE orders SET ${sql.update(changes)} WHERE id = ${ref} RETURNING id`).pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      lock: (ref) =>
        // A no-op update takes the row lock on PostgreSQL; SQLite's BEGIN IMMEDIATE holds the file already.
        sql<{ status_id: number }>`UPDATE orders SET status_id = status_id WHERE id = ${ref} RETURNING status_id`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.status_id)),
          Effect.orDie
        ),
      remove: (ref) =>
        Effect.gen(function*() {
          // Explicit, so the lines go even where foreign keys are not enforced.
          yield* sql`DELETE FROM order_lines WHERE order_ref = ${ref}`
          yield* sql`DELETE FROM orders WHERE id = ${ref}`
        }).pipe(Effect.orDie),
      lineNumbers: (ref) =>
        sql<{ line: number }>`SELECT line FROM order_lines WHERE order_ref = ${ref}`.pipe(
          Effect.map((rows) => rows.map((row) => row.line)),
          Effect.orDie
        ),
      insertLines: (ref, lines) =>
        Effect.gen(function*() {
          const inserted = new Set<number>()
          for (const chunk of chunks(lines)) {
            const rows = yield* sql<{ line: number }>`INSERT INTO order_lines ${
              sql.insert(chunk.map((line) => ({ order_ref: ref, line: line.line, sku_id: line.sku_id, qty: line.qty })))
            } ON CONFLICT (order_ref, line) DO NOTHING RETURNING line`
            for (const row of rows) inserted.add(row.line)
          }
          return lines.map((line) => line.line).filter((line) => !inserted.has(line))
        }).pipe(Effect.orDie),
      updateLine: (ref, line) =>
        sql<{ line: number }>`UPDATE order_lines SET sku_id = ${line.sku_id}, qty = ${line.qty}
          WHERE order_ref = ${ref} AND line = ${line.line} RETURNING line`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      removeLine: (ref, line) =>
        sql<{ line: number }>`DELETE FROM order_lines WHERE order_ref = ${ref} AND line = ${line} RETURNING line`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      customerVisible: (scope, customerId) =>
        sql<{ id: number }>`SELECT c.id FROM customers c WHERE c.id = ${customerId} AND ${ownedBy("c", scope)}`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      carrierVisible: (scope, carrierId) =>
        sql<{ id: number }>`SELECT id FROM carriers WHERE id = ${carrierId} AND site_id = ${scope.site_id}`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      visibleSkus: (scope, skuIds) =>
        Effect.gen(function*() {
          const visible = new Set<string>()
          for (const chunk of chunks(skuIds)) {
            const rows = yield* sql<{ sku_id: string }>`SELECT s.sku_id FROM skus s
              WHERE ${ownedBy("s", scope)} AND s.sku_id IN ${sql.in(chunk)}`
            for (const row of rows) visible.add(row.sku_id)
          }
          return visible
        }).pipe(Effect.orDie)
    })
  })
)
