/**
 * Orders and order lines on @effect/sql. Reads are single statements (one row per order, its lines
 * aggregated as JSON), so a list costs one query however many orders it holds, and sees one snapshot.
 * The statements of `GET /orders`, `GET /orders/:id` and `POST /orders` are `Prepared` texts, fixed
 * per call site: a list of values is one parameter, and each variant of a condition its own text.
 */
import { SqlClient } from "@effect/sql"
import {
  type OrderLineRow,
  type OrderLineWrite,
  OrderRepository,
  type OrderRow,
  type OrderUnitRow,
  type Scope,
  type StoredOrder
} from "@wms/core"
import { Effect, Layer } from "effect"
import { inIntegers, inTexts } from "./Dialect.js"
import { Prepared, type PreparedStatement } from "./Prepared.js"
import { first, query, returnsRow, rows } from "./Query.js"

// An order's lines as a JSON array of `[line, sku_id, qty, qty_picked, qty_shipped, qty_backordered]`: one row per
// order reads far fewer cells than a join repeating the header on every line.
type OrderRowWithLines = OrderRow & { readonly lines: string | null; readonly units?: string | null }

type LineTuple = readonly [number, string, number, number, number, number]

// A shipping unit of the order as `[id, sscc, unit_type, parent_id, weight, tracking_number]`.
type UnitTuple = readonly [number, string, "Carton" | "Pallet", number | null, number, string | null]

const toUnits = (units: string | null): ReadonlyArray<OrderUnitRow> =>
  units === null ? [] : (JSON.parse(units) as ReadonlyArray<UnitTuple>).map(
    ([id, sscc, unit_type, parent_id, weight, tracking_number]) => ({
      id,
      sscc,
      unit_type,
      parent_id,
      weight,
      tracking_number
    })
  )

// The header's fields named one by one: a rest pattern (`{ lines, ...header }`) copies them several
// times slower, and a list reads a hundred rows.
const headerOf = (row: OrderRowWithLines): OrderRow => ({
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
  created_by: row.created_by,
  backorder_of: row.backorder_of,
  to_site: row.to_site
})

const linesOf = (row: OrderRowWithLines): ReadonlyArray<OrderLineRow> =>
  row.lines === null ? [] : (JSON.parse(row.lines) as ReadonlyArray<LineTuple>).map(
    ([line, sku_id, qty, qty_picked, qty_shipped, qty_backordered]): OrderLineRow => ({
      line,
      sku_id,
      qty,
      qty_picked,
      qty_shipped,
      qty_backordered
    })
  )

/** An order of a list: without its shipping units, which only the single record shows. */
const toStored = (row: OrderRowWithLines): StoredOrder => ({ header: headerOf(row), lines: linesOf(row) })

/** An order read alone, with its shipping units. */
const toRecord = (row: OrderRowWithLines): StoredOrder => ({
  header: headerOf(row),
  lines: linesOf(row),
  units: toUnits(row.units ?? null)
})

/** A statement whose `WHERE` starts with the scope's rule, and the parameters that follow it. */
type OwnedStatement<Row> = (scope: Scope, params: ReadonlyArray<unknown>) => ReturnType<PreparedStatement<Row>>

export const layer = Layer.effect(
  OrderRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const prepared = yield* Prepared

    // The scope's rule as two texts: a site's scope sees the rows of all its clients.
    const owned = <Row extends object>(alias: string, text: (owner: string) => string): OwnedStatement<Row> => {
      const ofSite = prepared.prepare<Row>(text(`${alias}.site_id = ?`))
      const ofClient = prepared.prepare<Row>(text(`${alias}.site_id = ? AND ${alias}.client_id = ?`))
      return (scope, params) =>
        scope.client_id === null
          ? ofSite([scope.site_id, ...params])
          : ofClient([scope.site_id, scope.client_id, ...params])
    }

    const headerColumns = `o.id AS ref, o.order_id, o.client_id, o.order_date, o.status_id,
      o.customer_id, c.name AS customer_name, c.town AS customer_town, o.ship_by_date,
      k.name AS carrier_name, o.ship_dock, o.created_at, o.created_by, o.backorder_of, o.to_site`
    const lineValues = "l.line, l.sku_id, l.qty, l.qty_picked, l.qty_shipped, l.qty_backordered"
    const linesColumn = `(SELECT ${
      sql.onDialectOrElse({
        pg: () => `CAST(json_agg(json_build_array(${lineValues}) ORDER BY l.line) AS TEXT)`,
        orElse: () => `json_group_array(json_array(${lineValues}) ORDER BY l.line)`
      })
    } FROM order_lines l WHERE l.order_ref = o.id) AS lines`
    const joins = `LEFT JOIN customers c ON c.id = o.customer_id
      LEFT JOIN carriers k ON k.id = o.carrier_id`
    const selectWithLines = `SELECT ${headerColumns}, ${linesColumn} FROM orders o ${joins}`
    // A single order's record shows its shipping units (packing spec §4 P5): one probe of the
    // index `shipping_units_order`, which finds nothing for an order never packed.
    const unitValues = "u.id, u.sscc, u.unit_type, u.parent_id, u.weight, u.tracking_number"
    const unitsColumn = `(SELECT ${
      sql.onDialectOrElse({
        pg: () => `CAST(json_agg(json_build_array(${unitValues}) ORDER BY u.id) AS TEXT)`,
        orElse: () => `json_group_array(json_array(${unitValues}) ORDER BY u.id)`
      })
    } FROM shipping_units u WHERE u.order_ref = o.id HAVING count(*) > 0) AS units`
    const selectRecord = `SELECT ${headerColumns}, ${linesColumn}, ${unitsColumn} FROM orders o ${joins}`

    const listWithLines = owned<OrderRowWithLines>("o", (owner) => `${selectWithLines} WHERE ${owner} ORDER BY o.id`)
    const listHeaders = owned<OrderRowWithLines>(
      "o",
      (owner) => `SELECT ${headerColumns}, NULL AS lines FROM orders o ${joins} WHERE ${owner} ORDER BY o.id`
    )
    const findOrder = owned<OrderRowWithLines>("o", (owner) => `${selectRecord} WHERE ${owner} AND o.order_id = ?`)
    // A wave start reads the views of all its orders, a few hundred at a time.
    const refIn = inIntegers(sql, "o.id")
    const findOrders = prepared.prepare<OrderRowWithLines>(`${selectRecord} WHERE ${refIn.text} ORDER BY o.id`)
    const insertOrder = prepared.prepare<{ id: number }>(`INSERT INTO orders
      (site_id, client_id, order_id, order_date, status_id, customer_id, ship_by_date, carrier_id, ship_dock,
        created_at, created_by, to_site)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (site_id, order_id) DO NOTHING RETURNING id`)
    // All the lines in one statement, whatever their number: as columns of arrays on PostgreSQL, as
    // a JSON array of `[line, sku_id, qty]` on SQLite (whose `SELECT` needs a `WHERE` before
    // `ON CONFLICT`, or it reads `ON` as a join's).
    const insertLineRows = sql.onDialectOrElse({
      pg: () => {
        const statement = prepared.prepare<{ line: number }>(`INSERT INTO order_lines (order_ref, line, sku_id, qty)
          SELECT CAST(? AS INTEGER), l.line, l.sku_id, l.qty
          FROM unnest(CAST(? AS INTEGER[]), CAST(? AS TEXT[]), CAST(? AS INTEGER[])) AS l (line, sku_id, qty)
          ON CONFLICT (order_ref, line) DO NOTHING RETURNING line`)
        return (ref: number, lines: ReadonlyArray<OrderLineWrite>) =>
          statement([
            ref,
            lines.map((line) => line.line),
            lines.map((line) => line.sku_id),
            lines.map((line) => line.qty)
          ])
      },
      orElse: () => {
        const statement = prepared.prepare<{ line: number }>(`INSERT INTO order_lines (order_ref, line, sku_id, qty)
          SELECT ?, value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
          ON CONFLICT (order_ref, line) DO NOTHING RETURNING line`)
        return (ref: number, lines: ReadonlyArray<OrderLineWrite>) =>
          statement([ref, JSON.stringify(lines.map((line) => [line.line, line.sku_id, line.qty]))])
      }
    })
    const customerVisible = owned<{ id: number }>(
      "c",
      (owner) => `SELECT c.id FROM customers c WHERE ${owner} AND c.id = ?`
    )
    const carrierVisible = prepared.prepare<{ id: number }>("SELECT id FROM carriers WHERE id = ? AND site_id = ?")
    const skuIn = inTexts(sql, "s.sku_id")
    const visibleSkus = owned<{ sku_id: string }>(
      "s",
      (owner) => `SELECT s.sku_id FROM skus s WHERE ${owner} AND ${skuIn.text}`
    )

    return OrderRepository.of({
      list: (scope, withLines) => rows((withLines ? listWithLines : listHeaders)(scope, []), toStored),
      find: (scope, orderId) => first(findOrder(scope, [orderId]), toRecord),
      findMany: (refs) => rows(findOrders([refIn.bind([...new Set(refs)])]), toRecord),
      insert: (order) =>
        first(
          insertOrder([
            order.owner.site_id,
            order.owner.client_id,
            order.order_id,
            order.order_date,
            order.status_id,
            order.customer_id,
            order.ship_by_date,
            order.carrier_id,
            order.ship_dock,
            order.created_at,
            order.created_by,
            order.to_site
          ]),
          (row) => row.id
        ),
      update: (ref, changes) =>
        returnsRow(
          Object.keys(changes).length === 0
            ? sql`SELECT id FROM orders WHERE id = ${ref}`
            : sql`UPDATE orders SET ${sql.update(changes)} WHERE id = ${ref} RETURNING id`
        ),
      lock: (ref) =>
        // A no-op update takes the row lock on PostgreSQL; SQLite's BEGIN IMMEDIATE holds the file already.
        first(
          sql<{ status_id: number }>`UPDATE orders SET status_id = status_id WHERE id = ${ref} RETURNING status_id`,
          (row) => row.status_id
        ),
      remove: (ref) =>
        query(Effect.gen(function*() {
          // Explicit, so the lines go even where foreign keys are not enforced. An order that may
          // be deleted has nothing picked, so its shipping units (if any) are empty cartons and pallets.
          yield* sql`DELETE FROM order_lines WHERE order_ref = ${ref}`
          yield* sql`DELETE FROM shipping_unit_lines
            WHERE unit_id IN (SELECT id FROM shipping_units WHERE order_ref = ${ref})`
          yield* sql`DELETE FROM shipping_units WHERE order_ref = ${ref}`
          yield* sql`DELETE FROM orders WHERE id = ${ref}`
        })),
      lineNumbers: (ref) =>
        rows(sql<{ line: number }>`SELECT line FROM order_lines WHERE order_ref = ${ref}`, (row) => row.line),
      insertLines: (ref, lines) =>
        lines.length === 0 ? Effect.succeed([]) : query(insertLineRows(ref, lines), (inserted) => {
          const numbers = new Set(inserted.map((row) => row.line))
          return lines.map((line) => line.line).filter((line) => !numbers.has(line))
        }),
      updateLine: (ref, line) =>
        returnsRow(sql`UPDATE order_lines SET sku_id = ${line.sku_id}, qty = ${line.qty}
          WHERE order_ref = ${ref} AND line = ${line.line} RETURNING line`),
      removeLine: (ref, line) =>
        returnsRow(sql`DELETE FROM order_lines WHERE order_ref = ${ref} AND line = ${line} RETURNING line`),
      customerVisible: (scope, customerId) => returnsRow(customerVisible(scope, [customerId])),
      carrierVisible: (scope, carrierId) => returnsRow(carrierVisible([carrierId, scope.site_id])),
      visibleSkus: (scope, skuIds) =>
        skuIds.length === 0
          ? Effect.succeed(new Set<string>())
          : query(visibleSkus(scope, [skuIn.bind(skuIds)]), (found) => new Set(found.map((row) => row.sku_id)))
    })
  })
)
