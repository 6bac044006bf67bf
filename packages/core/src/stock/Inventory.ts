/**
 * Inventory: the stock overview, the transaction ledger, lost-and-found items, and stock
 * adjustments (extension) so stock can be corrected without a pre-advice. An adjustment at a
 * managed location obeys its status (stock in for a positive one, out for a negative one), never
 * its capacity: it records a fact.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { LocationStatusRefuses } from "../locations/Errors.js"
import { letsStockOut, takesStockIn } from "../locations/Location.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { invalidField } from "../shared/Errors.js"
import { CalendarDate, formatDate, formatDateTime, maxQuantity, RecordId, TimeZone } from "../shared/Formats.js"
import { type Actor, canSee } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { ContentFull, ContentNotFound, LostAndFoundItemNotFound, TransactionNotFound } from "./Errors.js"
import { holdEntries } from "./Held.js"
import {
  type Content,
  type ContentWithDescription,
  InventoryRepository,
  type LostAndFoundItem
} from "./InventoryRepository.js"
import * as Ledger from "./Ledger.js"
import { ReasonCode } from "./ReasonCode.js"
import { adjust } from "./Stock.js"

/** A record of `GET /inventory/overview` (§2.5). */
export interface OverviewRecord {
  readonly content_id: number
  readonly sku_id: string
  readonly description: string | null
  readonly loc_id: string
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
  readonly tag_id: string
  readonly expiry_date: string | null
  readonly client_id: string | null
  readonly created_datetime: string
  /** Whether an Active hold covers it (spec §1 H6). */
  readonly held: boolean
  /** The ids of the Active holds covering it. */
  readonly holds: ReadonlyArray<number>
}

/** A record of `GET /inventory/transactions` (§2.5): a ledger entry, its time shown in the service's zone. */
export interface TransactionRecord extends Omit<Ledger.LedgerEntry, "site_id" | "created_at"> {
  readonly dstamp: string
}

/** A record of `GET /inventory/lostandfound` (DECISIONS §5). */
export interface LostAndFoundRecord {
  readonly id: number
  readonly content_id: number
  readonly sku_id: string
  readonly description: string | null
  readonly loc_id: string
  readonly tag_id: string
  readonly qty: number
  readonly client_id: string | null
  readonly dstamp: string
  readonly created_by: string
  readonly notes: string | null
}

const NonZeroInteger = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n !== 0 && Math.abs(n) <= 1_000_000_000, {
    message: () => "must be a non-zero integer",
    jsonSchema: { type: "integer", minimum: -1_000_000_000, maximum: 1_000_000_000, not: { const: 0 } }
  })
)
const Text = Schema.String.pipe(Schema.filter((s) => s.trim() !== "" && s.length <= 64, {
  message: () => "must be a non-empty text of at most 64 characters"
}))

/**
 * The body of `POST /inventory/adjustments`: a content by `content_id`, or by `sku_id`, `loc_id`
 * and `tag_id` (and `expiry_date`); `qty` is the signed change.
 */
export const AdjustmentRequest = Schema.Struct({
  content_id: Schema.optionalWith(Schema.NullOr(RecordId), { default: () => null }),
  sku_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }),
  loc_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }),
  tag_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }),
  expiry_date: Schema.optionalWith(Schema.NullOr(CalendarDate), { default: () => null }),
  qty: NonZeroInteger,
  notes: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  reason_code: Schema.optionalWith(Schema.NullOr(ReasonCode), { default: () => null })
})
export type AdjustmentRequest = typeof AdjustmentRequest.Type

/** `YYYY-MM-DD` that is `days` after the calendar date `date`. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** The expiry date of stock of `sku` arriving now, when none is given. */
export const defaultExpiry = (
  sku: { readonly expiry_sku: boolean; readonly expiry_days: number | null },
  nowMillis: number,
  timeZone: string
): string | null =>
  sku.expiry_sku && sku.expiry_days !== null ? addDays(formatDate(nowMillis, timeZone), sku.expiry_days) : null

export class Inventory extends Effect.Service<Inventory>()("@wms/core/Inventory", {
  effect: Effect.gen(function*() {
    const repository = yield* InventoryRepository
    const skus = yield* SkuRepository
    const locations = yield* LocationRepository
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone

    const toOverview = (content: ContentWithDescription): OverviewRecord => ({
      content_id: content.content_id,
      sku_id: content.sku_id,
      description: content.description,
      loc_id: content.loc_id,
      qty: content.qty,
      qty_allocated: content.qty_allocated,
      qty_tasked_from: content.qty_tasked_from,
      tag_id: content.tag_id,
      expiry_date: content.expiry_date,
      client_id: content.client_id,
      created_datetime: formatDateTime(content.created_at, timeZone),
      held: (content.holds ?? []).length > 0,
      holds: content.holds ?? []
    })

    const toTransaction = (entry: Ledger.LedgerEntry): TransactionRecord => ({
      id: entry.id,
      dstamp: formatDateTime(entry.created_at, timeZone),
      transaction_type: entry.transaction_type,
      content_id: entry.content_id,
      from_loc_id: entry.from_loc_id,
      to_loc_id: entry.to_loc_id,
      final_loc_id: entry.final_loc_id,
      sku_id: entry.sku_id,
      qty: entry.qty,
      tag_id: entry.tag_id,
      order_id: entry.order_id,
      line_id: entry.line_id,
      notes: entry.notes,
      client_id: entry.client_id,
      from_content_id: entry.from_content_id,
      reason_code: entry.reason_code
    })

    const toLostAndFound = (item: LostAndFoundItem & { readonly description: string | null }): LostAndFoundRecord => ({
      id: item.id,
      content_id: item.content_id,
      sku_id: item.sku_id,
      description: item.description,
      loc_id: item.loc_id,
      tag_id: item.tag_id,
      qty: item.qty,
      client_id: item.client_id,
      dstamp: formatDateTime(item.created_at, timeZone),
      created_by: item.created_by,
      notes: item.notes
    })

    /** The overview, or the held (`true`) or free (`false`) part of it. */
    const overview = Effect.fnUntraced(function*(actor: Actor, held?: boolean) {
      const records = (yield* repository.listContents(actor.scope)).map(toOverview)
      return held === undefined ? records : records.filter((record) => record.held === held)
    })

    const content = Effect.fnUntraced(function*(actor: Actor, contentId: number) {
      const found = yield* repository.findContent(actor.scope, contentId)
      if (Option.isNone(found)) return yield* new ContentNotFound({ contentId })
      return toOverview(found.value)
    })

    const transactions = Effect.fnUntraced(function*(actor: Actor) {
      return (yield* repository.listTransactions(actor.scope)).map(toTransaction)
    })

    const transaction = Effect.fnUntraced(function*(actor: Actor, id: number) {
      const found = yield* repository.findTransaction(actor.scope, id)
      if (Option.isNone(found)) return yield* new TransactionNotFound({ transactionId: id })
      return toTransaction(found.value)
    })

    const lostAndFound = Effect.fnUntraced(function*(actor: Actor) {
      return (yield* repository.listLostAndFound(actor.scope)).map(toLostAndFound)
    })

    const lostAndFoundItem = Effect.fnUntraced(function*(actor: Actor, id: number) {
      const found = yield* repository.findLostAndFound(actor.scope, id)
      if (Option.isNone(found)) return yield* new LostAndFoundItemNotFound({ itemId: id })
      return toLostAndFound(found.value)
    })

    /**
     * The content an adjustment names, locked; a positive one may name a key where none is yet,
     * and gets a new content, `stored` once its location's status lets the adjustment through.
     */
    const contentToAdjust = Effect.fnUntraced(function*(actor: Actor, request: AdjustmentRequest) {
      if (request.content_id !== null) {
        const found = yield* repository.lockContent(actor.scope, request.content_id)
        if (Option.isNone(found)) return yield* new ContentNotFound({ contentId: request.content_id })
        return { stored: true, content: found.value } as const
      }
      if (request.sku_id === null) return yield* invalidField("sku_id", "is required when content_id is absent")
      if (request.loc_id === null) return yield* invalidField("loc_id", "is required when content_id is absent")
      const sku = yield* skus.find(actor.scope.site_id, request.sku_id)
      if (
        Option.isNone(sku) ||
        !canSee(actor.scope, { site_id: actor.scope.site_id, client_id: sku.value.client_id as Content["client_id"] })
      ) {
        return yield* invalidField("sku_id", `SKU ${request.sku_id} does not exist`)
      }
      const owner = { site_id: actor.scope.site_id, client_id: sku.value.client_id as Content["client_id"] }
      const now = yield* Clock.currentTimeMillis
      const expiryDate = request.expiry_date ?? defaultExpiry(sku.value, now, timeZone)
      // Without a tag the adjustment adds to (or takes from) the stock already at the location.
      const found = yield* repository.lockContentAt(owner, {
        sku_id: request.sku_id,
        loc_id: request.loc_id,
        tag_id: request.tag_id,
        expiry_date: expiryDate
      })
      if (Option.isSome(found)) return { stored: true, content: found.value } as const
      if (request.qty < 0) {
        return yield* invalidField(
          request.tag_id === null ? "tag_id" : "content_id",
          `a negative adjustment needs an existing content: none of SKU ${request.sku_id} at ${request.loc_id}`
        )
      }
      const fresh: Omit<Content, "content_id"> = {
        ...owner,
        sku_id: request.sku_id,
        loc_id: request.loc_id,
        tag_id: request.tag_id ?? (yield* repository.nextTagId(actor.scope.site_id)),
        expiry_date: expiryDate,
        qty: 0,
        qty_allocated: 0,
        qty_tasked_from: 0,
        created_at: new Date(now).toISOString()
      }
      return { stored: false, content: fresh } as const
    })

    /**
     * Refuses a change at a managed location whose status keeps stock out (a positive adjustment)
     * or in (a negative one). The share lock makes a status change wait for the adjustment.
     */
    const checkStatus = Effect.fnUntraced(function*(actor: Actor, locId: string, delta: number) {
      const [location] = yield* locations.lockMany(actor.scope.site_id, [locId], "share")
      if (location === undefined) return
      if (delta > 0 ? !takesStockIn(location.status) : !letsStockOut(location.status)) {
        return yield* new LocationStatusRefuses({ locId, status: location.status })
      }
    })

    const adjustStock = Effect.fnUntraced(function*(actor: Actor, request: AdjustmentRequest) {
      const found = yield* contentToAdjust(actor, request)
      yield* checkStatus(actor, found.content.loc_id, request.qty)
      const target = found.stored
        ? found.content
        : { ...found.content, content_id: yield* repository.insertContent(found.content) }
      const next = yield* adjust(target, request.qty)
      if (next.qty > maxQuantity) {
        return yield* new ContentFull({ contentId: target.content_id, max: maxQuantity })
      }
      yield* repository.setQuantities(target.content_id, next)
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* repository.appendTransaction(Ledger.entry("Adjustment", target, {
        qty: request.qty,
        from: target.loc_id,
        notes: request.notes,
        ...(request.reason_code === null ? {} : { reason_code: request.reason_code }),
        created_at: createdAt
      }))
      // Stock entering an empty content of a held scope gets its Hold rows, as a receipt's does (H4).
      if (target.qty === 0 && next.qty > 0) {
        const held = (yield* repository.holdsOn([target.content_id])).get(target.content_id) ?? []
        if (held.length > 0) yield* repository.appendTransactions(holdEntries(target, held, next.qty, createdAt))
      }
    }, atomically)

    return {
      overview,
      content,
      transactions,
      transaction,
      lostAndFound,
      lostAndFoundItem,
      adjust: adjustStock
    } as const
  })
}) {}
