/**
 * Recall and trace (spec §1): where a lot came from, where it is, and which orders (and customers)
 * it shipped to, from the ledger, for its whole history (contents now empty included).
 */
import { Schema } from "effect"
import { TextId } from "../masterdata/MasterData.js"
import { CalendarDate } from "../shared/Formats.js"
import { Hold, NewHold } from "./Hold.js"

/** A lot: a SKU, with a tag and/or an expiry date or neither (every lot of the SKU). */
export interface Lot {
  readonly sku_id: string
  readonly tag_id: string | null
  readonly expiry_date: string | null
}

/** The query of `GET /trace`. */
export const TraceQuery = Schema.Struct({
  sku_id: TextId,
  tag_id: Schema.optional(TextId),
  expiry_date: Schema.optional(CalendarDate)
})
export type TraceQuery = typeof TraceQuery.Type

/** The ledger rows that bring a lot's stock in: a pre-advice's receipt, a customer return, a transfer's receipt. */
export const TraceReceivedTypes = ["Receipt", "Return", "TransferIn"] as const
export type TraceReceivedType = typeof TraceReceivedTypes[number]

/** The ledger rows that send a lot's stock out: a customer shipment, a transfer's shipment. */
export const TraceShippedTypes = ["Shipment", "TransferOut"] as const
export type TraceShippedType = typeof TraceShippedTypes[number]

/**
 * A trace as `GET /trace` answers it. A received row names its source by its type: a `Receipt`
 * its pre-advice, a `Return` its return and the order it came back from, a `TransferIn` its
 * transfer order (the ledger row names the order, not the sending site, so not the `TR-` pre-advice).
 */
export const Trace = Schema.Struct({
  received: Schema.Array(Schema.Struct({
    date: Schema.String,
    transaction_type: Schema.Literal(...TraceReceivedTypes),
    /** The pre-advice a `Receipt` received; null for a return or a transfer. */
    pre_advice_id: Schema.NullOr(Schema.String),
    /** The return a `Return` received; null otherwise. */
    return_id: Schema.NullOr(Schema.String),
    /** The transfer order a `TransferIn` received, or the order a `Return` came back from; null for a `Receipt`. */
    order_id: Schema.NullOr(Schema.String),
    qty: Schema.Number,
    content_id: Schema.Number
  })),
  on_hand: Schema.Array(Schema.Struct({
    content_id: Schema.Number,
    loc_id: Schema.String,
    qty: Schema.Number,
    qty_allocated: Schema.Number,
    held: Schema.Boolean
  })),
  shipped: Schema.Array(Schema.Struct({
    date: Schema.String,
    transaction_type: Schema.Literal(...TraceShippedTypes),
    /** The order shipped: a customer's, or a transfer to another site. */
    order_id: Schema.String,
    /** The customer of a `Shipment`'s order; null for a transfer, or an order without one. */
    customer_id: Schema.NullOr(Schema.Number),
    /** The site a `TransferOut` went to; null for a `Shipment`. */
    to_site: Schema.NullOr(Schema.String),
    line: Schema.NullOr(Schema.Number),
    qty: Schema.Number
  }))
})
export type Trace = typeof Trace.Type

/** The body of `POST /recalls`. */
export const NewRecall = Schema.Struct({
  sku_id: TextId,
  tag_id: Schema.optionalWith(Schema.NullOr(TextId), { default: () => null }),
  expiry_date: Schema.optionalWith(Schema.NullOr(CalendarDate), { default: () => null }),
  reason_code: NewHold.fields.reason_code,
  notes: NewHold.fields.notes
})
export type NewRecall = typeof NewRecall.Type

/** What `POST /recalls` answers: the lot's new hold and its trace. */
export const Recall = Schema.Struct({ hold: Hold, trace: Trace })
export type Recall = typeof Recall.Type
