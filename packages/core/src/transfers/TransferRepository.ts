/**
 * The store port of transfers between sites (spec §3): the pre-advice a shipment creates at the
 * destination, the lines in transit, and the short-close.
 */
import { Context, type Effect, type Option } from "effect"
import type { StatusId } from "../shared/Status.js"
import type { ListWindow } from "../shared/Window.js"

/** A line of a transfer's pre-advice: one shipped content. */
export interface TransferLineWrite {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
  readonly tag_id: string
  readonly expiry_date: string | null
}

/** The pre-advice of a shipped transfer, at its destination `site_id`, with no client and no supplier. */
export interface NewTransfer {
  readonly site_id: string
  readonly pre_advice_id: string
  readonly order_id: string
  readonly from_site: string
  readonly status_id: StatusId
  /** UTC ISO text. */
  readonly created_at: string
  readonly created_by: string
  readonly lines: ReadonlyArray<TransferLineWrite>
}

/** A transfer line with some of it still in transit. */
export interface InTransitRow {
  readonly pre_advice_id: string
  readonly order_id: string
  readonly from_site: string
  readonly to_site: string
  readonly status_id: StatusId
  /** UTC ISO text: when the pre-advice was created, which is when the transfer shipped. */
  readonly created_at: string
  readonly line: number
  readonly sku_id: string
  readonly tag_id: string
  readonly expiry_date: string | null
  readonly qty: number
  readonly qty_received: number
}

export class TransferRepository extends Context.Tag("@wms/core/TransferRepository")<TransferRepository, {
  /** Inserts the pre-advice and its lines; none when the destination has a pre-advice of that id already. */
  readonly insertTransfer: (transfer: NewTransfer) => Effect.Effect<Option.Option<number>>
  /**
   * The lines of In Transit and In Receipt transfers that `siteId` ships or receives with some of
   * them not received, by pre-advice and line.
   */
  readonly inTransit: (siteId: string, window: ListWindow) => Effect.Effect<ReadonlyArray<InTransitRow>>
  /**
   * Ends a transfer's pre-advice (`ref`, locked by the caller): every line records what it did not
   * receive as `qty_lost`, and the pre-advice becomes `status` with `reasonCode`.
   */
  readonly close: (ref: number, status: StatusId, reasonCode: string) => Effect.Effect<void>
}>() {}
