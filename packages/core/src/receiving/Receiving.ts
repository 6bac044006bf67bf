/**
 * Receiving (extension): stock arrives against a pre-advice. Each received line becomes a stock
 * content with a Receipt transaction, raises the line's `qty_received`, and moves the pre-advice
 * to In Receipt or Received, raising `preadvice_received` with the pre-advice as `GET
 * /preadvices/:id` shows it. A managed location takes a receipt only when its status lets stock
 * in. With putaway (asked for, or the site's `putaway_on_receipt`), the stock received at a
 * receiving location gets its putaway tasks in the same transaction. One transaction per call.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { SiteSettingsRepository } from "../admin/SiteSettingsRepository.js"
import { LocationStatusRefuses } from "../locations/Errors.js"
import { takesStockIn } from "../locations/Location.js"
import { LocationRepository } from "../locations/LocationRepository.js"
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

/** The receipt lines that take in everything still expected. */
const everythingExpected = (lines: ReadonlyArray<LineToReceive>): ReadonlyArray<ReceiptLine> =>
  lines.filter((l) => l.qty_received < l.qty).map((l) => ({
    line: l.line,
    qty: l.qty - l.qty_received,
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
        for (const [index, receipt] of requested.entries()) {
          const field = explicit ? `lines.${index}` : "lines"
          const line = preAdvice.lines.find((l) => l.line === receipt.line)
          if (line === undefined) return yield* invalidField(`${field}.line`, `line ${receipt.line} does not exist`)
          const total = (receiving.get(line.line) ?? 0) + receipt.qty
          if (total > line.qty - line.qty_received) {
            return yield* invalidField(
              `${field}.qty`,
              `receiving ${total} of line ${line.line} exceeds the ${line.qty - line.qty_received} still expected`
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
      const received = new Map(preAdvice.lines.map((l) => [l.line, l.qty_received]))
      const contents: Array<Content> = []
      for (const receipt of requested) {
        const line = preAdvice.lines.find((l) => l.line === receipt.line)!
        const sku = yield* skus.find(actor.scope.site_id, line.sku_id)
        const content = {
          site_id: actor.scope.site_id,
          client_id: line.client_id ?? preAdvice.client_id,
          sku_id: line.sku_id,
          loc_id: receipt.loc_id ?? receivingLocation,
          tag_id: receipt.tag_id ?? (yield* inventory.nextTagId(actor.scope.site_id)),
          expiry_date: receipt.expiry_date ??
            Option.match(sku, { onNone: () => null, onSome: (s) => defaultExpiry(s, now, timeZone) }),
          qty: receipt.qty,
          qty_allocated: 0,
          qty_tasked_from: 0,
          created_at: createdAt
        }
        const contentId = yield* inventory.insertContent(content)
        contents.push({ ...content, content_id: contentId })
        yield* inventory.appendTransaction(Ledger.entry("Receipt", { ...content, content_id: contentId }, {
          qty: receipt.qty,
          from: content.loc_id,
          line_id: line.line,
          notes: `PreAdvice ${preAdvice.pre_advice_id}`,
          created_at: createdAt
        }))
        yield* receipts.addReceived(preAdvice.ref, line.line, receipt.qty)
        received.set(line.line, received.get(line.line)! + receipt.qty)
      }
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
      if (status === Status.Received) {
        yield* events.publish({
          event_type: "preadvice_received",
          site_id: actor.scope.site_id,
          client_id: preAdvice.client_id,
          data: yield* preAdvices.getPreAdvice(actor, preAdviceId)
        })
      }
      return report
    }, atomically)

    return { receive } as const
  })
}) {}
