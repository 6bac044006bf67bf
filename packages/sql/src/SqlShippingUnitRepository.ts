/**
 * Shipping units on @effect/sql (spec §4): a unit is one row read with its order's id and its lines
 * aggregated as JSON, with the `each_weight` of each line's SKU joined in for its weight.
 */
import { SqlClient } from "@effect/sql"
import { type PackableLine, ShippingUnitRepository, type ShippingUnitRow, Status, type UnitType } from "@wms/core"
import { Effect, Layer } from "effect"
import { nextCounterValue } from "./Counters.js"
import { lockClause, visibleIn, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import { first, query, rows, run } from "./Query.js"

type LineTuple = readonly [number, string, number, number | null]

interface UnitRecord extends Omit<ShippingUnitRow, "lines"> {
  readonly lines: string | null
}

const orNull = (value: unknown) => (value === null ? null : Number(value))

const toRow = (row: UnitRecord): ShippingUnitRow => ({
  id: row.id,
  site_id: row.site_id,
  client_id: row.client_id,
  sscc: row.sscc,
  order_ref: row.order_ref,
  order_id: row.order_id,
  unit_type: row.unit_type as UnitType,
  parent_id: row.parent_id,
  status_id: row.status_id,
  tare_weight: Number(row.tare_weight),
  weight: Number(row.weight),
  length: orNull(row.length),
  width: orNull(row.width),
  height: orNull(row.height),
  tracking_number: row.tracking_number,
  created_at: row.created_at,
  created_by: row.created_by,
  lines: row.lines === null ? [] : (JSON.parse(row.lines) as ReadonlyArray<LineTuple>).map(
    ([order_line, sku_id, qty, each_weight]) => ({ order_line, sku_id, qty, each_weight })
  )
})

export const layer = Layer.effect(
  ShippingUnitRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const lineValues = "l.order_line, l.sku_id, l.qty, s.each_weight"
    const lines = sql.literal(`(SELECT ${
      sql.onDialectOrElse({
        pg: () => `CAST(json_agg(json_build_array(${lineValues}) ORDER BY l.order_line) AS TEXT)`,
        orElse: () => `json_group_array(json_array(${lineValues}) ORDER BY l.order_line)`
      })
    } FROM shipping_unit_lines l LEFT JOIN skus s ON s.site_id = u.site_id AND s.sku_id = l.sku_id
      WHERE l.unit_id = u.id HAVING count(*) > 0) AS lines`)
    const select = sql.literal(`SELECT u.id, u.site_id, u.client_id, u.sscc, u.order_ref, o.order_id, u.unit_type,
      u.parent_id, u.status_id, u.tare_weight, u.weight, u.length, u.width, u.height, u.tracking_number,
      u.created_at, u.created_by`)
    const from = sql.literal("FROM shipping_units u JOIN orders o ON o.id = u.order_ref")

    return ShippingUnitRepository.of({
      list: (scope, filter, window) =>
        rows(
          counted(sql, window, (page, total) =>
            sql<UnitRecord>`${select}, ${lines}${total} ${from} WHERE ${visibleIn(sql, scope, "u")}
              ${filter.order_id === undefined ? sql.literal("") : sql`AND o.order_id = ${filter.order_id}`}
              ${filter.status_id === undefined ? sql.literal("") : sql`AND u.status_id = ${filter.status_id}`}
              ORDER BY u.id ${windowClause(sql, page)}`),
          toRow
        ),
      find: (scope, id) =>
        first(sql<UnitRecord>`${select}, ${lines} ${from} WHERE ${visibleIn(sql, scope, "u")} AND u.id = ${id}`, toRow),
      ofOrder: (orderRef) =>
        rows(sql<UnitRecord>`${select}, ${lines} ${from} WHERE u.order_ref = ${orderRef} ORDER BY u.id`, toRow),
      lockLines: (orderRef, numbers) =>
        query(
          Effect.gen(function*() {
            // The lock first, then the sums in a statement of their own: under READ COMMITTED it
            // reads what the writers this lock waited for committed.
            yield* sql`SELECT line FROM order_lines WHERE order_ref = ${orderRef} AND line IN ${sql.in(numbers)}
              ORDER BY line ${lockClause(sql, "update")}`
            return yield* sql<PackableLine>`SELECT l.line, l.sku_id, l.qty_picked,
                CAST(COALESCE((SELECT SUM(p.qty) FROM shipping_unit_lines p
                  JOIN shipping_units u ON u.id = p.unit_id
                  WHERE u.order_ref = l.order_ref AND p.order_line = l.line), 0) AS BIGINT) AS qty_packed
              FROM order_lines l WHERE l.order_ref = ${orderRef} AND l.line IN ${sql.in(numbers)} ORDER BY l.line`
          }),
          (found) => found.map((line) => ({ ...line, qty_packed: Number(line.qty_packed) }))
        ),
      nextSerial: (siteId) => query(nextCounterValue(sql, siteId, "sscc")),
      insert: (unit) =>
        first(
          sql<{ id: number }>`INSERT INTO shipping_units ${
            sql.insert({
              site_id: unit.owner.site_id,
              client_id: unit.owner.client_id,
              sscc: unit.sscc,
              order_ref: unit.order_ref,
              unit_type: unit.unit_type,
              parent_id: unit.parent_id,
              status_id: Status.Open,
              tare_weight: unit.tare_weight,
              weight: unit.tare_weight,
              created_at: unit.created_at,
              created_by: unit.created_by
            })
          } ON CONFLICT (site_id, sscc) DO NOTHING RETURNING id`,
          (row) => row.id
        ),
      addLine: (unitId, line) =>
        run(sql`INSERT INTO shipping_unit_lines (unit_id, order_line, sku_id, qty)
          VALUES (${unitId}, ${line.order_line}, ${line.sku_id}, ${line.qty})
          ON CONFLICT (unit_id, order_line) DO UPDATE SET qty = shipping_unit_lines.qty + excluded.qty`),
      removeLine: (unitId, orderLine) =>
        query(
          sql`DELETE FROM shipping_unit_lines WHERE unit_id = ${unitId} AND order_line = ${orderLine} RETURNING unit_id`,
          (deleted) => deleted.length > 0
        ),
      setStatus: (unitId, statusId) => run(sql`UPDATE shipping_units SET status_id = ${statusId} WHERE id = ${unitId}`),
      update: (unitId, fields) =>
        Object.keys(fields).length === 0
          ? Effect.void
          : run(sql`UPDATE shipping_units SET ${sql.update(fields)} WHERE id = ${unitId}`),
      setWeights: (weights) =>
        run(Effect.forEach(
          [...weights],
          ([id, weight]) => sql`UPDATE shipping_units SET weight = ${weight} WHERE id = ${id}`,
          { discard: true }
        )),
      remove: (unitId) =>
        run(Effect.gen(function*() {
          yield* sql`UPDATE shipping_units SET parent_id = NULL WHERE parent_id = ${unitId}`
          yield* sql`DELETE FROM shipping_unit_lines WHERE unit_id = ${unitId}`
          yield* sql`DELETE FROM shipping_units WHERE id = ${unitId}`
        })),
      shipOrder: (orderRef) =>
        run(sql`UPDATE shipping_units SET status_id = ${Status.Shipped} WHERE order_ref = ${orderRef}`)
    })
  })
)
