/**
 * Transfers between sites (spec §3) as the API shows them: the lines still in transit, and the
 * body of a short-close.
 */
import { Schema } from "effect"
import { ListWindow } from "../shared/Window.js"
import { ReasonCode } from "../stock/ReasonCode.js"

/** The pre-advice a transfer's shipment creates at its destination (spec §3 T2). */
export const transferPreAdviceId = (fromSite: string, orderId: string) => `TR-${fromSite}-${orderId}`

const StatusRecord = Schema.Struct({ id: Schema.Number, description: Schema.String })

/** A transfer line not yet received in full nor closed, as `GET /transfers/in-transit` lists it (spec §3 T3). */
export const InTransitLine = Schema.Struct({
  pre_advice_id: Schema.String,
  order_id: Schema.String,
  from_site: Schema.String,
  to_site: Schema.String,
  pre_advice_status: StatusRecord,
  line: Schema.Number,
  sku_id: Schema.String,
  tag_id: Schema.String,
  expiry_date: Schema.NullOr(Schema.String),
  qty_shipped: Schema.Number,
  qty_received: Schema.Number,
  /** `qty_shipped − qty_received`: stock of neither site. */
  qty_in_transit: Schema.Number,
  /** When the transfer shipped, `YYYY-MM-DD HH:mm:ss`. */
  shipped_datetime: Schema.String
})
export type InTransitLine = typeof InTransitLine.Type

/** The query of `GET /transfers/in-transit`: a list window. */
export const InTransitQuery = ListWindow
export type InTransitQuery = typeof InTransitQuery.Type

/** The body of `POST /preadvices/:id/close`: why the rest of the transfer is written off. */
export const CloseTransferRequest = Schema.Struct({ reason_code: ReasonCode })
export type CloseTransferRequest = typeof CloseTransferRequest.Type
