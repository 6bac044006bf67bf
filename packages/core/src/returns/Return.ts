/**
 * Customer returns (RMA, spec §2 of HOLDS-RETURNS-TRANSFERS-PACKING): goods that come back against
 * a shipped order, line by line, as the API shows them and as the write bodies carry them.
 */
import { Schema } from "effect"
import { OrderId, OrderIdFromPath } from "../orders/Order.js"
import { CalendarDate, maxInteger, Quantity, RecordIdFromPath } from "../shared/Formats.js"
import { StoredText } from "../shared/Text.js"
import { ListWindow } from "../shared/Window.js"

/** The location a receipt puts returned stock at when its line names none: unmanaged, like `RECEIVING`. */
export const defaultReturnsLocation = "RETURNS"

/** What becomes of returned goods (R3). */
export const Dispositions = ["Restock", "Quarantine", "Scrap"] as const
export const Disposition = Schema.Literal(...Dispositions)
export type Disposition = typeof Disposition.Type

/** A line of a return as `GET /returns/:id` shows it; `qty_received` is restocked + quarantined + scrapped. */
export const ReturnLine = Schema.Struct({
  line: Schema.Number,
  order_line: Schema.Number,
  sku_id: Schema.String,
  qty_authorized: Schema.Number,
  qty_received: Schema.Number,
  qty_restocked: Schema.Number,
  qty_quarantined: Schema.Number,
  qty_scrapped: Schema.Number
})
export type ReturnLine = typeof ReturnLine.Type

/** A return as `GET /returns/:id` shows it. */
export const Return = Schema.Struct({
  return_id: Schema.String,
  order_id: Schema.String,
  customer_id: Schema.NullOr(Schema.Number),
  reason_code: Schema.String,
  notes: Schema.NullOr(Schema.String),
  status: Schema.String,
  status_id: Schema.Number,
  created_by: Schema.String,
  creation_datetime: Schema.String,
  lines: Schema.Array(ReturnLine)
})
export type Return = typeof Return.Type

/** A return id in a path. */
export const ReturnIdFromPath = StoredText

/** A return id on write: not blank, at most 100 characters, unique per site. */
export const ReturnId = OrderId

const LineNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= maxInteger, {
    message: () => `must be an integer from 1 to ${maxInteger}`,
    jsonSchema: { type: "integer", minimum: 1, maximum: maxInteger }
  })
)

const Text64 = StoredText.pipe(
  Schema.filter((s) => s.trim() !== "" && s.length <= 64, {
    message: () => "must be a non-empty text of at most 64 characters"
  })
)

const Notes = StoredText.pipe(
  Schema.filter((s) => s.length <= 1000, { message: () => "must be at most 1000 characters" })
)

/** A line of `POST /returns`: how much of an order line comes back. */
export const NewReturnLine = Schema.Struct({
  order_line: LineNumber,
  qty: Quantity
})
export type NewReturnLine = typeof NewReturnLine.Type

const AtLeastOne = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Array(item).pipe(Schema.filter((lines) => lines.length > 0, { message: () => "must have at least one line" }))

/** The body of `POST /returns`. */
export const NewReturn = Schema.Struct({
  return_id: Schema.optional(Schema.NullOr(ReturnId)),
  order_id: OrderIdFromPath,
  reason_code: Text64,
  notes: Schema.optional(Schema.NullOr(Notes)),
  lines: AtLeastOne(NewReturnLine)
})
export type NewReturn = typeof NewReturn.Type

/** A line of `POST /returns/:id/receive`: how much of return line `line` arrived, and what becomes of it. */
export const ReturnReceiptLine = Schema.Struct({
  line: LineNumber,
  qty: Quantity,
  disposition: Disposition,
  loc_id: Schema.optionalWith(Schema.NullOr(Text64), { default: () => null }),
  tag_id: Schema.optionalWith(Schema.NullOr(Text64), { default: () => null }),
  expiry_date: Schema.optionalWith(Schema.NullOr(CalendarDate), { default: () => null })
})
export type ReturnReceiptLine = typeof ReturnReceiptLine.Type

/** The body of `POST /returns/:id/receive`. */
export const ReturnReceipt = Schema.Struct({
  lines: AtLeastOne(ReturnReceiptLine)
})
export type ReturnReceipt = typeof ReturnReceipt.Type

/** The query of `GET /returns`. */
export const ReturnQuery = Schema.Struct({
  order_id: Schema.optional(OrderIdFromPath),
  status_id: Schema.optional(RecordIdFromPath),
  customer_id: Schema.optional(RecordIdFromPath),
  ...ListWindow.fields
})
export type ReturnQuery = typeof ReturnQuery.Type
