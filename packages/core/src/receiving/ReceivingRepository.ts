/**
 * The store port for receiving: the pre-advice being received, locked for the transaction, and
 * its progress.
 */
import { Context, type Effect, type Option } from "effect"
import type { ClientId } from "../shared/Ids.js"
import type { StatusId } from "../shared/Status.js"
import type { Scope } from "../shared/Tenancy.js"

/** A pre-advice line as receiving sees it. */
export interface LineToReceive {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
  readonly qty_received: number
  /** The line's own client, or null when it takes the header's. */
  readonly client_id: ClientId | null
  /** On a transfer line (spec §3): the tag and expiry that were shipped; null on other lines. */
  readonly tag_id: string | null
  readonly expiry_date: string | null
  /** What a short-close wrote off of a transfer line; 0 on every other line. */
  readonly qty_lost: number
}

/** What makes a pre-advice a transfer's (spec §3 T2): the order it ships and the site that shipped it. */
export interface TransferOrigin {
  readonly order_id: string
  readonly from_site: string
}

/** A pre-advice as receiving sees it. */
export interface PreAdviceToReceive {
  readonly ref: number
  readonly pre_advice_id: string
  readonly client_id: ClientId | null
  readonly status_id: StatusId
  /** Set on the pre-advice a transfer's shipment created; null on every other. */
  readonly transfer: TransferOrigin | null
  readonly lines: ReadonlyArray<LineToReceive>
}

export class ReceivingRepository extends Context.Tag("@wms/core/ReceivingRepository")<ReceivingRepository, {
  /** The pre-advice of the scope with its lines, locked against other writers until the transaction ends. */
  readonly lockPreAdvice: (scope: Scope, preAdviceId: string) => Effect.Effect<Option.Option<PreAdviceToReceive>>
  /** The location where the site puts stock it receives. */
  readonly receivingLocation: (siteId: string) => Effect.Effect<string>
  /** Raises `qty_received` of every line of `received` (line → qty) by its quantity. */
  readonly addReceivedLines: (ref: number, received: ReadonlyMap<number, number>) => Effect.Effect<void>
  readonly setStatus: (ref: number, status: StatusId) => Effect.Effect<void>
}>() {}
