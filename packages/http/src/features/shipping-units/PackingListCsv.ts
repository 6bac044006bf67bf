/**
 * The packing list as CSV (`Accept: text/csv`): a row per line of each unit, the unit's columns
 * repeated on each; a unit with no lines (a pallet of cartons) has one row with the line's empty.
 */
import { HttpApiSchema } from "@effect/platform"
import type { PackingList } from "@wms/core"
import { stringify } from "csv-stringify/sync"
import { Schema } from "effect"

/** The CSV text of a packing list, as the response's second success. */
export const PackingListCsv = Schema.String.pipe(
  HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" })
).annotations({ description: "The packing list as CSV, when `Accept` names `text/csv`." })

const columns = [
  "order_id",
  "sscc",
  "unit_type",
  "parent_sscc",
  "status",
  "tare_weight",
  "weight",
  "length",
  "width",
  "height",
  "tracking_number",
  "order_line",
  "sku_id",
  "qty"
]

const cell = (value: string | number | null) => (value === null ? "" : value)

/** Whether a request's `Accept` header asks for the CSV. */
export const wantsCsv = (accept: string | undefined) => accept !== undefined && /(^|,)\s*text\/csv\b/i.test(accept)

export const packingListCsv = (list: PackingList): string =>
  stringify([
    columns,
    ...list.units.flatMap((unit) => {
      const head = [
        list.order_id,
        unit.sscc,
        unit.unit_type,
        unit.parent_sscc,
        unit.status,
        unit.tare_weight,
        unit.weight,
        unit.length,
        unit.width,
        unit.height,
        unit.tracking_number
      ].map(cell)
      return unit.lines.length === 0
        ? [[...head, "", "", ""]]
        : unit.lines.map((line) => [...head, line.order_line, line.sku_id, line.qty])
    })
  ])
