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
}

/** A pre-advice as receiving sees it. */
export interface PreAdviceToReceive {
  readonly ref: number
  readonly pre_advice_id: string
  readonly client_id: ClientId | null
  readonly status_id: StatusId
  readonly lines: ReadonlyArray<LineToReceive>
}

export class ReceivingRepository extends Context.Tag("@wms/core/ReceivingRepository")<ReceivingRepository, {
  /** The pre-advice of the scope with its lines, locked against other writers until the transaction ends. */
  readonly lockPreAdvice: (scope: Scope, preAdviceId: string) => Effect.Effect<Option.Option<PreAdviceToReceive>>
  /** The location where the site puts stock it receives. */
  readonly receivingLocation: (siteId: string) => Effect.Effect<string>
  readonly addReceived: (ref: number, line: number, qty: number) => Effect.Effect<void>
  readonly setStatus: (ref: number, status: StatusId) => Effect.Effect<void>
}>() {}
