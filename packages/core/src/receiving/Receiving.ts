/**
 * Receiving (extension): stock arrives against a pre-advice. Each received line becomes a stock
 * content with a Receipt transaction, raises the line's `qty_received`, and moves the pre-advice
 * to In Receipt or Received, raising `preadvice_received` with the pre-advice as `GET
 * /preadvices/:id` shows it. A managed location takes a receipt only when its status lets stock
 * in. With putaway (asked for, or the site's `putaway_on_receipt`), the stock received at a
 * receiving location gets its putaway tasks in the same transaction. One transaction per call.
 * A transfer's pre-advice (spec §3 T4) is received the same way, with TransferIn transactions,
 * the shipped tag and expiry, and a `transfer_received` event at both sites for each receipt.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { SiteSettingsRepository } from "../admin/SiteSettingsRepository.js"
import { LocationStatusRefuses } from "../locations/Errors.js"
import { takesStockIn } from "../locations/Location.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import type { Sku } from "../masterdata/Sku.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { invalidField } from "../shared/Errors.js"
import { EventPublisher } from "../shared/Events.js"
import { CalendarDate, maxInteger, Quantity, TimeZone } from "../shared/Formats.js"
import { Status } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { holdEntries } from "../stock/Held.js"
import { defaultExpiry } from "../stock/Inventory.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import { PreAdviceNotFound, PreAdviceNothingToReceive } from "./Errors.js"
import { PreAdvices } from "./PreAdvices.js"
import { type PutawayReport, ReceiptPutaway } from "./ReceiptPutaway.js"
import { type LineToReceive, type PreAdviceToReceive, ReceivingRepository } from "./ReceivingRepository.js"

const Text = Schema.String.pipe(Schema.filter((s) => s.trim() !== "" && s.length <= 64, {
  message: () => "must be a non-empty text of at most 64 characters"
}))
const LineNumber = Schema.Number.pipe(Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= maxInteger, {
  message: () => `must be an integer from 1 to ${maxInteger}`,
  jsonSchema: { type: "integer", minimum: 1, maximum: maxInteger }
}))

/** One line of a receipt: how much of pre-advice line `line` arrived, and where. */
export const ReceiptLine = Schema.Struct({
  line: LineNumber,
  qty: Quantity,
  loc_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }),
  tag_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }),
  expiry_date: Schema.optionalWith(Schema.NullOr(CalendarDate), { default: () => null })
})
export type ReceiptLine = typeof ReceiptLine.Type

/**
 * The body of `POST /preadvices/:id/receive`; without `lines` every line is received in full;
 * without `putaway` (or null) the site's `putaway_on_receipt` says whether putaway tasks are made.
 */
export const ReceiptRequest = Schema.Struct({
  lines: Schema.optionalWith(Schema.NullOr(Schema.Array(ReceiptLine)), { default: () => null }),
  putaway: Schema.optionalWith(Schema.NullOr(Schema.Boolean), { default: () => null })
})
export type ReceiptRequest = typeof ReceiptRequest.Type

/** What a line still expects: neither received nor written off by a transfer's short-close. */
const stillExpected = (line: LineToReceive) => line.qty - line.qty_received - line.qty_lost

/** The receipt lines that take in everything still expected. */
const everythingExpected = (lines: ReadonlyArray<LineToReceive>): ReadonlyArray<ReceiptLine> =>
  lines.filter((l) => stillExpected(l) > 0).map((l) => ({
    line: l.line,
    qty: stillExpected(l),
    loc_id: null,
    tag_id: null,
    expiry_date: null
  }))

/** The status of a pre-advice whose lines are as given. */
export const receiptStatus = (lines: ReadonlyArray<Pick<LineToReceive, "qty" | "qty_received">>) =>
  lines.every((l) => l.qty_received >= l.qty)
    ? Status.Received
    : lines.some((l) => l.qty_received > 0)
    ? Status.InReceipt
    : Status.Open

export class Receiving extends Effect.Service<Receiving>()("@wms/core/Receiving", {
  effect: Effect.gen(function*() {
    const receipts = yield* ReceivingRepository
    const locations = yield* LocationRepository
    const settings = yield* SiteSettingsRepository
    const putaways = yield* ReceiptPutaway
    const inventory = yield* InventoryRepository
    const skus = yield* SkuRepository
    const preAdvices = yield* PreAdvices
    const events = yield* EventPublisher
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone

    /** Checks every receipt line against what is still expected, before anything is written. */
    const checkLines = (preAdvice: PreAdviceToReceive, requested: ReadonlyArray<ReceiptLine>, explicit: boolean) =>
      Effect.gen(function*() {
        const receiving = new Map<number, number>()
        const lines = new Map(preAdvice.lines.map((l) => [l.line, l]))
        for (const [index, receipt] of requested.entries()) {
          const field = explicit ? `lines.${index}` : "lines"
          const line = lines.get(receipt.line)
          if (line === undefined) return yield* invalidField(`${field}.line`, `line ${receipt.line} does not exist`)
          const total = (receiving.get(line.line) ?? 0) + receipt.qty
          if (total > stillExpected(line)) {
            return yield* invalidField(
              `${field}.qty`,
              `receiving ${total} of line ${line.line} exceeds the ${stillExpected(line)} still expected`
            )
          }
          receiving.set(line.line, total)
        }
      })

    const receive = Effect.fnUntraced(function*(actor: Actor, preAdviceId: string, request: ReceiptRequest) {
      const found = yield* receipts.lockPreAdvice(actor.scope, preAdviceId)
      if (Option.isNone(found)) return yield* new PreAdviceNotFound({ preAdviceId })
      const preAdvice = found.value
      const requested = request.lines ?? everythingExpected(preAdvice.lines)
      if (requested.length === 0) return yield* new PreAdviceNothingToReceive({ preAdviceId })
      yield* checkLines(preAdvice, requested, request.lines !== null)

      const putaway = request.putaway ?? (yield* settings.get(actor.scope.site_id)).putaway_on_receipt
      const receivingLocation = yield* receipts.receivingLocation(actor.scope.site_id)
      // Locked for update with putaway: the planner locks its candidates so, and a share lock would
      // have to be raised to one, which two receipts could each wait for.
      const managed = yield* locations.lockMany(
        actor.scope.site_id,
        [...new Set(requested.map((r) => r.loc_id ?? receivingLocation))].sort(),
        putaway ? "update" : "share"
      )
      const refusing = managed.find((l) => !takesStockIn(l.status))
      if (refusing !== undefined) {
        return yield* new LocationStatusRefuses({ locId: refusing.loc_id, status: refusing.status })
      }

      const now = yield* Clock.currentTimeMillis
      const createdAt = new Date(now).toISOString()
      const siteId = actor.scope.site_id
      const lines = new Map(preAdvice.lines.map((l) => [l.line, l]))
      const lineOf = (receipt: ReceiptLine) => lines.get(receipt.line)!
      // A transfer's stock keeps the tag and expiry it was shipped with, unless the receipt names others (spec §3 T4).
      const transfer = preAdvice.transfer
      // Read once for the whole receipt: the SKUs whose default expiry applies, and the tags to generate.
      const defaultExpiring = transfer === null ? requested.filter((r) => r.expiry_date === null) : []
      const skusById = defaultExpiring.length === 0
        ? new Map<string, Sku>()
        : yield* skus.findMany(siteId, [...new Set(defaultExpiring.map((r) => lineOf(r).sku_id))])
      const untagged = requested.filter((r) => r.tag_id === null && lineOf(r).tag_id === null).length
      const tags = untagged === 0 ? [] : yield* inventory.nextTagIds(siteId, untagged)
      let tagsTaken = 0
      const fresh = requested.map((receipt): Omit<Content, "content_id"> => {
        const line = lineOf(receipt)
        const sku = skusById.get(line.sku_id)
        return {
          site_id: siteId,
          client_id: line.client_id ?? preAdvice.client_id,
          sku_id: line.sku_id,
          loc_id: receipt.loc_id ?? receivingLocation,
          tag_id: receipt.tag_id ?? line.tag_id ?? tags[tagsTaken++],
          expiry_date: receipt.expiry_date ??
            (transfer !== null ? line.expiry_date : sku === undefined ? null : defaultExpiry(sku, now, timeZone)),
          qty: receipt.qty,
          qty_allocated: 0,
          qty_tasked_from: 0,
          created_at: createdAt
        }
      })
      const contentIds = yield* inventory.insertContents(fresh)
      const contents = fresh.map((content, i): Content => ({ ...content, content_id: contentIds[i] }))
      yield* inventory.appendTransactions(
        contents.map((content, i) =>
          Ledger.entry(transfer === null ? "Receipt" : "TransferIn", content, {
            qty: content.qty,
            from: content.loc_id,
            line_id: requested[i].line,
            ...(transfer === null
              ? { notes: `PreAdvice ${preAdvice.pre_advice_id}` }
              : { order_id: transfer.order_id, notes: `Transfer ${transfer.order_id}` }),
            created_at: createdAt
          })
        )
      )
      const receivedNow = new Map<number, number>()
      for (const receipt of requested) receivedNow.set(receipt.line, (receivedNow.get(receipt.line) ?? 0) + receipt.qty)
      yield* receipts.addReceivedLines(preAdvice.ref, receivedNow)
      const received = new Map(preAdvice.lines.map((l) => [l.line, l.qty_received + (receivedNow.get(l.line) ?? 0)]))
      // A receipt of a held lot, SKU or location is born held (spec §1): its Hold rows are written
      // now, and it stays where it was received, out of the putaway.
      const held = yield* inventory.holdsOn(contents.map((content) => content.content_id))
      if (held.size > 0) {
        yield* inventory.appendTransactions(
          contents.flatMap((content) =>
            holdEntries(content, held.get(content.content_id) ?? [], content.qty, createdAt)
          )
        )
      }
      const report: Option.Option<PutawayReport> = putaway
        ? Option.some(
          yield* putaways.putAway(
            actor,
            contents.filter((content) => !held.has(content.content_id)),
            managed,
            receivingLocation
          )
        )
        : Option.none()
      const status = receiptStatus(preAdvice.lines.map((l) => ({ qty: l.qty, qty_received: received.get(l.line)! })))
      if (status !== preAdvice.status_id) yield* receipts.setStatus(preAdvice.ref, status)
      const shown = status === Status.Received || transfer !== null
        ? yield* preAdvices.getPreAdvice(actor, preAdviceId)
        : undefined
      if (status === Status.Received) {
        yield* events.publish({
          event_type: "preadvice_received",
          site_id: actor.scope.site_id,
          client_id: preAdvice.client_id,
          data: shown
        })
      }
      // Each receipt of a transfer is told to both of its sites (spec §3 T4).
      if (transfer !== null) {
        yield* events.publishAll([actor.scope.site_id, transfer.from_site].map((site_id) => ({
          event_type: "transfer_received" as const,
          site_id,
          client_id: null,
          data: shown
        })))
      }
      return report
    }, atomically)

    return { receive } as const
  })
}) {}
