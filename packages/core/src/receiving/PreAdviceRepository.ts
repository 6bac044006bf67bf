/**
 * The store port for pre-advices and their lines, and the look-ups of the master data they refer
 * to (suppliers, SKUs).
 */
import { Context, type Effect, type Option } from "effect"
import type { ClientId, SiteId, UserId } from "../shared/Ids.js"
import type { StatusId } from "../shared/Status.js"
import type { Scope } from "../shared/Tenancy.js"

/** A pre-advice header as the store keeps it, with the name of its supplier. */
export interface StoredPreAdvice {
  /** The numeric record id (`id` of a list item); lines refer to it. */
  readonly ref: number
  readonly site_id: SiteId
  readonly pre_advice_id: string
  readonly client_id: ClientId | null
  readonly status_id: StatusId
  readonly supplier: { readonly id: number; readonly name: string } | null
  /** UTC ISO text. */
  readonly created_at: string
  readonly created_by: UserId
  /** Set on the pre-advice a transfer's shipment created (spec §3 T2); null on every other. */
  readonly transfer: StoredTransfer | null
}

/** What a transfer's pre-advice knows of its transfer. */
export interface StoredTransfer {
  /** The transfer order at `from_site`. */
  readonly order_id: string
  readonly from_site: string
  /** The reason it was short-closed with; null until then. */
  readonly reason_code: string | null
}

/** A new pre-advice header. */
export interface NewStoredPreAdvice {
  readonly site_id: SiteId
  readonly pre_advice_id: string
  readonly client_id: ClientId | null
  readonly status_id: StatusId
  readonly supplier_id: number | null
  readonly created_at: string
  readonly created_by: UserId
}

/** A pre-advice line as the store keeps it. */
export interface StoredPreAdviceLine {
  readonly line: number
  readonly sku_id: string
  readonly qty: number
  readonly qty_received: number
  readonly pallet_id: string | null
  /** The line's own client; null when the line follows the header's client. */
  readonly client_id: ClientId | null
  /** On a transfer's line: the shipped tag and expiry, and what its short-close wrote off; else null. */
  readonly tag_id: string | null
  readonly expiry_date: string | null
  readonly qty_lost: number | null
}

/** The writable fields of a line. */
export type PreAdviceLineFields = Omit<StoredPreAdviceLine, "qty_received" | "tag_id" | "expiry_date" | "qty_lost">

/** A window on a list: at most `limit` rows (all when undefined) after skipping `offset`. */
export interface PreAdvicePage {
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

export class PreAdviceRepository extends Context.Tag("@wms/core/PreAdviceRepository")<PreAdviceRepository, {
  /** The pre-advices `scope` may see, in the order they were created. */
  readonly list: (scope: Scope, page: PreAdvicePage) => Effect.Effect<ReadonlyArray<StoredPreAdvice>>
  readonly find: (siteId: SiteId, preAdviceId: string) => Effect.Effect<Option.Option<StoredPreAdvice>>
  /** Inserts the header and returns its record id; none when the site has the pre-advice id already. */
  readonly insert: (preAdvice: NewStoredPreAdvice) => Effect.Effect<Option.Option<number>>
  /**
   * Locks the header for the rest of the transaction, so that concurrent writes of one pre-advice
   * run one after the other; false when it is gone.
   */
  readonly lock: (ref: number) => Effect.Effect<boolean>
  /** Changes the fields that are not undefined. */
  readonly update: (
    ref: number,
    changes: { readonly supplier_id?: number | null; readonly client_id?: ClientId | null }
  ) => Effect.Effect<void>
  /** Removes the header and all its lines. */
  readonly remove: (ref: number) => Effect.Effect<void>
  /** The lines of a pre-advice by line number. */
  readonly lines: (ref: number, page: PreAdvicePage) => Effect.Effect<ReadonlyArray<StoredPreAdviceLine>>
  readonly findLine: (ref: number, line: number) => Effect.Effect<Option.Option<StoredPreAdviceLine>>
  /** The highest line number of a pre-advice, 0 when it has none. */
  readonly maxLine: (ref: number) => Effect.Effect<number>
  /** Inserts the lines whose numbers are free and returns the numbers it inserted. */
  readonly insertLines: (ref: number, lines: ReadonlyArray<PreAdviceLineFields>) => Effect.Effect<ReadonlyArray<number>>
  /** Changes the fields that are not undefined. */
  readonly updateLine: (
    ref: number,
    line: number,
    changes: Partial<Omit<PreAdviceLineFields, "line">>
  ) => Effect.Effect<void>
  readonly removeLine: (ref: number, line: number) => Effect.Effect<void>
  /** The supplier's name when it exists and `scope` may see it. */
  readonly supplierName: (scope: Scope, supplierId: number) => Effect.Effect<Option.Option<string>>
  /** Those of the SKU ids that exist and that `scope` may see. */
  readonly visibleSkus: (scope: Scope, skuIds: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
}>() {}
