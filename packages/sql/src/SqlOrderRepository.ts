/**
 * Orders and order lines on @effect/sql. Reads are single statements (an order and its lines in
 * one join), so a list costs one query however many orders it holds, and sees one snapshot.
 */
import { SqlClient } from "@effect/sql"
import { type OrderLineRow, OrderRepository, type OrderRow, type Scope, type StoredOrder } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { chunked } from "./Batches.js"

type JoinedRow = OrderRow & {
  readonly line: number | null
  readonly sku_id: string | null
  readonly qty: number | null
  readonly qty_picked: number | null
  readonly qty_shipped: number | null
}

// Bound parameters per statement stay far below SQLite's (32766) and PostgreSQL's (65535) limits.
const chunkSize = 500

const chunks = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const result: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += chunkSize) result.push(items.slice(i, i + chunkSize))
  return result
}

const headerOf = (row: JoinedRow): OrderRow => ({
  ref: row.ref,
  order_id: row.order_id,
  client_id: row.client_id,
  order_date: row.order_date,
  status_id: row.status_id,
  customer_id: row.customer_id,
  customer_name: row.customer_name,
  customer_town: row.customer_town,
  ship_by_date: row.ship_by_date,
  carrier_name: row.carrier_name,
  ship_dock: row.ship_dock,
  created_at: row.created_at,
  created_by: row.created_by
})

/** Groups rows ordered by order and line into orders; an order without lines has one row of nulls. */
const group = (rows: ReadonlyArray<JoinedRow>): Array<StoredOrder> => {
  const result: Array<{ header: OrderRow; lines: Array<OrderLineRow> }> = []
  let current: { header: OrderRow; lines: Array<OrderLineRow> } | undefined
  for (const row of rows) {
    if (current === undefined || current.header.ref !== row.ref) {
      current = { header: headerOf(row), lines: [] }
      result.push(current)
    }
    if (row.line !== null) {
      current.lines.push({
        line: row.line,
        sku_id: row.sku_id!,
        qty: row.qty!,
        qty_picked: row.qty_picked!,
        qty_shipped: row.qty_shipped!
      })
    }
  }
  return result
}

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
    const lineColumns = sql.literal("l.line, l.sku_id, l.qty, l.qty_picked, l.qty_shipped")
    const joins = sql.literal(`LEFT JOIN customers c ON c.id = o.customer_id
      LEFT JOIN carriers k ON k.id = o.carrier_id`)

    return OrderRepository.of({
      list: (scope, withLines) =>
        (withLines
          ? sql<JoinedRow>`SELECT ${headerColumns}, ${lineColumns} FROM orders o ${joins}
              LEFT JOIN order_lines l ON l.order_ref = o.id
              WHERE ${ownedBy("o", scope)} ORDER BY o.id, l.line`
          : sql<JoinedRow>`SELECT ${headerColumns}, NULL AS line FROM orders o ${joins}
              WHERE ${ownedBy("o", scope)} ORDER BY o.id`).pipe(
          Effect.map(group),
          Effect.orDie,
          Effect.withSpan("OrderRepository.list")
        ),
      find: (scope, orderId) =>
        sql<JoinedRow>`SELECT ${headerColumns}, ${lineColumns} FROM orders o ${joins}
          LEFT JOIN order_lines l ON l.order_ref = o.id
          WHERE ${ownedBy("o", scope)} AND o.order_id = ${orderId} ORDER BY l.line`.pipe(
          Effect.map((rows) => Option.fromNullable(group(rows)[0])),
          Effect.orDie,
          Effect.withSpan("OrderRepository.find")
        ),
      findMany: (refs) =>
        Effect.forEach(chunked(refs, 5_000), (chunk) =>
          sql<JoinedRow>`SELECT ${headerColumns}, ${lineColumns} FROM orders o ${joins}
            LEFT JOIN order_lines l ON l.order_ref = o.id
            WHERE ${sql.in("o.id", chunk)} ORDER BY o.id, l.line`.pipe(Effect.map(group))).pipe(
          Effect.map((groups) => groups.flat()),
          Effect.orDie,
          Effect.withSpan("OrderRepository.findMany")
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
          Effect.orDie,
          Effect.withSpan("OrderRepository.insert")
        ),
      update: (ref, changes) =>
        (Object.keys(changes).length === 0
          ? sql<{ id: number }>`SELECT id FROM orders WHERE id = ${ref}`
          : sql<{ id: number }>`UPDATE orders SET ${sql.update(changes)} WHERE id = ${ref} RETURNING id`).pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("OrderRepository.update")
        ),
      lock: (ref) =>
        // A no-op update takes the row lock on PostgreSQL; SQLite's BEGIN IMMEDIATE holds the file already.
        sql<{ status_id: number }>`UPDATE orders SET status_id = status_id WHERE id = ${ref} RETURNING status_id`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.status_id)),
          Effect.orDie,
          Effect.withSpan("OrderRepository.lock")
        ),
      remove: (ref) =>
        Effect.gen(function*() {
          // Explicit, so the lines go even where foreign keys are not enforced.
          yield* sql`DELETE FROM order_lines WHERE order_ref = ${ref}`
          yield* sql`DELETE FROM orders WHERE id = ${ref}`
        }).pipe(Effect.orDie, Effect.withSpan("OrderRepository.remove")),
      lineNumbers: (ref) =>
        sql<{ line: number }>`SELECT line FROM order_lines WHERE order_ref = ${ref}`.pipe(
          Effect.map((rows) => rows.map((row) => row.line)),
          Effect.orDie,
          Effect.withSpan("OrderRepository.lineNumbers")
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
        }).pipe(Effect.orDie, Effect.withSpan("OrderRepository.insertLines")),
      updateLine: (ref, line) =>
        sql<{ line: number }>`UPDATE order_lines SET sku_id = ${line.sku_id}, qty = ${line.qty}
          WHERE order_ref = ${ref} AND line = ${line.line} RETURNING line`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("OrderRepository.updateLine")
        ),
      removeLine: (ref, line) =>
        sql<{ line: number }>`DELETE FROM order_lines WHERE order_ref = ${ref} AND line = ${line} RETURNING line`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("OrderRepository.removeLine")
        ),
      customerVisible: (scope, customerId) =>
        sql<{ id: number }>`SELECT c.id FROM customers c WHERE c.id = ${customerId} AND ${ownedBy("c", scope)}`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("OrderRepository.customerVisible")
        ),
      carrierVisible: (scope, carrierId) =>
        sql<{ id: number }>`SELECT id FROM carriers WHERE id = ${carrierId} AND site_id = ${scope.site_id}`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("OrderRepository.carrierVisible")
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
        }).pipe(Effect.orDie, Effect.withSpan("OrderRepository.visibleSkus"))
    })
  })
)
