/**
 * Customer returns (spec §2): the `Returns` service holding every rule of an RMA. A return is
 * authorized against a shipped order (R1), line by line, never above what shipped over all its
 * returns that are not Cancelled (R2, under the lock of the order lines); a receipt takes the goods
 * in with a disposition (R3) and moves the return Open → In Receipt → Received (R4).
 */
import { Clock, Effect, Option } from "effect"
import { SiteSettingsRepository } from "../admin/SiteSettingsRepository.js"
import { HoldRepository } from "../holds/HoldRepository.js"
import { Holds } from "../holds/Holds.js"
import { LocationStatusRefuses } from "../locations/Errors.js"
import { takesStockIn } from "../locations/Location.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { OrderLineNotFound, OrderNotFound } from "../orders/Errors.js"
import { OrderRepository } from "../orders/OrderRepository.js"
import { describeStatus } from "../orders/OrderView.js"
import { type PutawayReport, ReceiptPutaway } from "../receiving/ReceiptPutaway.js"
import { invalidField, InvalidInput } from "../shared/Errors.js"
import { EventPublisher } from "../shared/Events.js"
import { formatDateTime, TimeZone } from "../shared/Formats.js"
import type { ClientId } from "../shared/Ids.js"
import { Status } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { holdEntries } from "../stock/Held.js"
import { defaultExpiry } from "../stock/Inventory.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import {
  OrderNotShipped,
  ReturnExceedsShipped,
  ReturnExists,
  ReturnHasReceipts,
  ReturnNotFound,
  ReturnNothingReceived,
  ReturnOfTransfer,
  ReturnStatusRefuses
} from "./Errors.js"
import {
  defaultReturnsLocation,
  type NewReturn,
  type Return,
  type ReturnQuery,
  type ReturnReceipt,
  type ReturnReceiptLine
} from "./Return.js"
import { type ReceivedQuantities, ReturnRepository, type ReturnRow } from "./ReturnRepository.js"

/** A return as the API shows it. */
export const toReturn = (row: ReturnRow, timeZone: string): Return => ({
  return_id: row.return_id,
  order_id: row.order_id,
  customer_id: row.customer_id,
  reason_code: row.reason_code,
  notes: row.notes,
  status: describeStatus(row.status_id),
  status_id: row.status_id,
  created_by: row.created_by,
  creation_datetime: formatDateTime(row.created_at, timeZone),
  lines: row.lines.map((line) => ({ ...line }))
})

/** The generated id of the return of counter value `n`: `R00000001`, … */
export const generatedReturnId = (n: number) => `R${String(n).padStart(8, "0")}`

/** The status of a receiving return whose lines are as given (R4). */
export const returnStatus = (
  lines: ReadonlyArray<{ readonly qty_authorized: number; readonly qty_received: number }>
) =>
  lines.every((line) => line.qty_received >= line.qty_authorized)
    ? Status.Received
    : lines.some((line) => line.qty_received > 0)
    ? Status.InReceipt
    : Status.Open

const receivable: ReadonlySet<number> = new Set([Status.Open, Status.InReceipt])

const quantitiesOf = (receipt: ReturnReceiptLine): ReceivedQuantities => ({
  restocked: receipt.disposition === "Restock" ? receipt.qty : 0,
  quarantined: receipt.disposition === "Quarantine" ? receipt.qty : 0,
  scrapped: receipt.disposition === "Scrap" ? receipt.qty : 0
})

export class Returns extends Effect.Service<Returns>()("@wms/core/Returns", {
  effect: Effect.gen(function*() {
    const returns = yield* ReturnRepository
    const orders = yield* OrderRepository
    const locations = yield* LocationRepository
    const inventory = yield* InventoryRepository
    const skus = yield* SkuRepository
    const settings = yield* SiteSettingsRepository
    const putaways = yield* ReceiptPutaway
    const holdRepository = yield* HoldRepository
    const holds = yield* Holds
    const events = yield* EventPublisher
    const { atomically } = yield* Transactor

    const findReturn = (actor: Actor, returnId: string) =>
      Effect.flatMap(
        returns.find(actor.scope, returnId),
        Option.match({ onNone: () => Effect.fail(new ReturnNotFound({ returnId })), onSome: Effect.succeed })
      )

    const lockReturn = (actor: Actor, returnId: string) =>
      Effect.flatMap(
        returns.lock(actor.scope, returnId),
        Option.match({ onNone: () => Effect.fail(new ReturnNotFound({ returnId })), onSome: Effect.succeed })
      )

    const list = Effect.fnUntraced(function*(actor: Actor, query: ReturnQuery) {
      const { limit, offset, ...filter } = query
      const timeZone = yield* TimeZone
      return (yield* returns.list(actor.scope, filter, { limit, offset })).map((row) => toReturn(row, timeZone))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, returnId: string) {
      return toReturn(yield* findReturn(actor, returnId), yield* TimeZone)
    })

    // Inserts the return under the given id, or the next free generated one.
    const insert = Effect.fnUntraced(function*(row: Parameters<typeof returns.insert>[0], given: boolean) {
      if (given) {
        const ref = yield* returns.insert(row)
        if (Option.isNone(ref)) return yield* new ReturnExists({ returnId: row.return_id })
        return row.return_id
      }
      // An id a client gave a return of its own is skipped.
      for (;;) {
        const returnId = generatedReturnId(yield* returns.nextNumber(row.owner.site_id))
        if (Option.isSome(yield* returns.insert({ ...row, return_id: returnId }))) return returnId
      }
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewReturn) {
      const found = yield* orders.find(actor.scope, input.order_id)
      if (Option.isNone(found)) return yield* new OrderNotFound({ orderId: input.order_id })
      const { header, lines: orderLines } = found.value
      const unknown = input.lines.find((line) => !orderLines.some((l) => l.line === line.order_line))
      if (unknown !== undefined) {
        return yield* new OrderLineNotFound({ orderId: header.order_id, line: unknown.order_line })
      }
      // The order's lock, then its lines' (the lock order): two returns of one line queue here (R2).
      const status = yield* orders.lock(header.ref)
      if (Option.isNone(status)) return yield* new OrderNotFound({ orderId: input.order_id })
      if (status.value !== Status.Shipped) return yield* new OrderNotShipped({ orderId: header.order_id })
      if (header.to_site !== null) {
        return yield* new ReturnOfTransfer({ orderId: header.order_id, toSite: header.to_site })
      }
      const asked = new Map<number, number>()
      for (const line of input.lines) asked.set(line.order_line, (asked.get(line.order_line) ?? 0) + line.qty)
      const locked = new Map(
        (yield* returns.lockLines(header.ref, [...asked.keys()].sort((a, b) => a - b))).map((l) => [l.line, l])
      )
      for (const [orderLine, qty] of asked) {
        const line = locked.get(orderLine)
        if (line === undefined) return yield* new OrderLineNotFound({ orderId: header.order_id, line: orderLine })
        const returnable = Math.max(0, line.qty_shipped - line.qty_authorized)
        if (qty > returnable) {
          return yield* new ReturnExceedsShipped({ qty, returnable, orderId: header.order_id, line: orderLine })
        }
      }
      const returnId = yield* insert({
        // The return belongs to its order's owner, whoever of the site authorizes it.
        owner: { site_id: actor.scope.site_id, client_id: header.client_id as ClientId | null },
        return_id: input.return_id ?? "",
        order_ref: header.ref,
        customer_id: header.customer_id,
        reason_code: input.reason_code,
        notes: input.notes ?? null,
        created_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
        created_by: actor.userId,
        lines: input.lines.map((line, i) => ({
          line: i + 1,
          order_line: line.order_line,
          sku_id: locked.get(line.order_line)!.sku_id,
          qty_authorized: line.qty
        }))
      }, input.return_id != null)
      // Inserted in this transaction: a miss would be the store's defect.
      return yield* Effect.orDie(get(actor, returnId))
    }, atomically)

    // Every receipt line names a line of the return, and a line never takes in more than it authorizes.
    const checkReceipt = Effect.fnUntraced(function*(row: ReturnRow, requested: ReadonlyArray<ReturnReceiptLine>) {
      const receiving = new Map<number, number>()
      for (const [index, receipt] of requested.entries()) {
        const line = row.lines.find((l) => l.line === receipt.line)
        if (line === undefined) {
          return yield* invalidField(`lines.${index}.line`, `return ${row.return_id} has no line ${receipt.line}`)
        }
        const total = (receiving.get(line.line) ?? 0) + receipt.qty
        if (line.qty_received + total > line.qty_authorized) {
          // The spec's own text, a 400 like a field's: the generic category, as no typed error of 400 exists.
          return yield* new InvalidInput({ message: `Over-receipt of return ${row.return_id} line ${line.line}` })
        }
        receiving.set(line.line, total)
      }
    })

    // The expiry of returned stock without one given: what the order line shipped when that was one
    // expiry, else the SKU's default (R3).
    const expiryOf = Effect.fnUntraced(function*(actor: Actor, row: ReturnRow, orderLine: number, skuId: string) {
      const shipped = yield* returns.shippedExpiries(row.order_ref, orderLine)
      if (shipped.length === 1 && shipped[0] !== null) return shipped[0]
      const sku = yield* skus.find(actor.scope.site_id, skuId)
      const now = yield* Clock.currentTimeMillis
      const timeZone = yield* TimeZone
      return Option.match(sku, { onNone: () => null, onSome: (s) => defaultExpiry(s, now, timeZone) })
    })

    const receive = Effect.fnUntraced(function*(actor: Actor, returnId: string, request: ReturnReceipt) {
      const row = yield* lockReturn(actor, returnId)
      if (!receivable.has(row.status_id)) {
        return yield* new ReturnStatusRefuses({ returnId: row.return_id, status: describeStatus(row.status_id) })
      }
      yield* checkReceipt(row, request.lines)
      const entering = request.lines.filter((receipt) => receipt.disposition !== "Scrap")
      const quarantining = entering.some((receipt) => receipt.disposition === "Quarantine")
      // The site's holds lock, which the quarantine holds take, before the locations (the lock order).
      if (quarantining) yield* holdRepository.lockHoldsOf(actor.scope.site_id)
      // With the site's putaway_on_receipt, the answer is the putaway report, as a pre-advice's is.
      const putaway = (yield* settings.get(actor.scope.site_id)).putaway_on_receipt
      // Locked for update with putaway: the planner locks its candidates so (as receiving does).
      const managed = yield* locations.lockMany(
        actor.scope.site_id,
        [...new Set(entering.map((receipt) => receipt.loc_id ?? defaultReturnsLocation))].sort(),
        putaway ? "update" : "share"
      )
      const refusing = managed.find((l) => !takesStockIn(l.status))
      if (refusing !== undefined) {
        return yield* new LocationStatusRefuses({ locId: refusing.loc_id, status: refusing.status })
      }

      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      const entered: Array<{ readonly content: Content; readonly receipt: ReturnReceiptLine; readonly line: number }> =
        []
      for (const receipt of request.lines) {
        const line = row.lines.find((l) => l.line === receipt.line)!
        yield* returns.addReceived(row.ref, line.line, quantitiesOf(receipt))
        if (receipt.disposition === "Scrap") continue
        const content = {
          site_id: actor.scope.site_id,
          client_id: row.client_id as ClientId | null,
          sku_id: line.sku_id,
          loc_id: receipt.loc_id ?? defaultReturnsLocation,
          tag_id: receipt.tag_id ?? (yield* inventory.nextTagId(actor.scope.site_id)),
          expiry_date: receipt.expiry_date ?? (yield* expiryOf(actor, row, line.order_line, line.sku_id)),
          qty: receipt.qty,
          qty_allocated: 0,
          qty_tasked_from: 0,
          created_at: createdAt
        }
        const contentId = yield* inventory.insertContent(content)
        yield* inventory.appendTransaction(Ledger.entry("Return", { ...content, content_id: contentId }, {
          qty: receipt.qty,
          from: content.loc_id,
          order_id: row.order_id,
          line_id: line.order_line,
          notes: `Return ${row.return_id} line ${line.line}`,
          created_at: createdAt
        }))
        entered.push({ content: { ...content, content_id: contentId }, receipt, line: line.line })
      }
      // Returned goods of a held lot, SKU or location are born held (spec §1): their Hold rows now,
      // and they stay where they came in, out of the putaway.
      const held = yield* inventory.holdsOn(entered.map(({ content }) => content.content_id))
      if (held.size > 0) {
        yield* inventory.appendTransactions(
          entered.flatMap(({ content }) =>
            holdEntries(content, held.get(content.content_id) ?? [], content.qty, createdAt)
          )
        )
      }
      // Quarantined goods are born under a content hold of their own, reason Return (R3).
      // The content was made in this transaction, in the caller's scope: a refusal would be a defect.
      for (const { content, line } of entered.filter(({ receipt }) => receipt.disposition === "Quarantine")) {
        yield* Effect.orDie(holds.createHoldIn(actor, {
          content_id: content.content_id,
          sku_id: null,
          tag_id: null,
          expiry_date: null,
          loc_id: null,
          reason_code: "Return",
          notes: `Return ${row.return_id} line ${line}`,
          deallocate: null
        }))
      }
      const restocked = entered.filter(({ content, receipt }) =>
        receipt.disposition === "Restock" && !held.has(content.content_id)
      ).map(({ content }) => content)
      const report: Option.Option<PutawayReport> = putaway
        ? Option.some(yield* putaways.putAway(actor, restocked, managed, defaultReturnsLocation))
        : Option.none()
      const received = new Map<number, number>()
      for (const receipt of request.lines) received.set(receipt.line, (received.get(receipt.line) ?? 0) + receipt.qty)
      const status = returnStatus(
        row.lines.map((l) => ({
          qty_authorized: l.qty_authorized,
          qty_received: l.qty_received + (received.get(l.line) ?? 0)
        }))
      )
      if (status !== row.status_id) yield* returns.setStatus(row.ref, status)
      yield* events.publish({
        event_type: "return_received",
        site_id: actor.scope.site_id,
        client_id: row.client_id,
        data: yield* get(actor, row.return_id)
      })
      return report
    }, atomically)

    const close = Effect.fnUntraced(function*(actor: Actor, returnId: string) {
      const row = yield* lockReturn(actor, returnId)
      if (row.status_id === Status.Open) return yield* new ReturnNothingReceived({ returnId: row.return_id })
      if (row.status_id !== Status.InReceipt) {
        return yield* new ReturnStatusRefuses({ returnId: row.return_id, status: describeStatus(row.status_id) })
      }
      yield* returns.authorizeReceived(row.ref)
      yield* returns.setStatus(row.ref, Status.Complete)
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, returnId: string) {
      const row = yield* lockReturn(actor, returnId)
      if (row.status_id === Status.Open) return yield* returns.setStatus(row.ref, Status.Cancelled)
      if (row.status_id === Status.InReceipt || row.status_id === Status.Received) {
        return yield* new ReturnHasReceipts({ returnId: row.return_id })
      }
      return yield* new ReturnStatusRefuses({ returnId: row.return_id, status: describeStatus(row.status_id) })
    }, atomically)

    return {
      listReturns: list,
      getReturn: get,
      createReturn: create,
      receiveReturn: receive,
      closeReturn: close,
      deleteReturn: remove
    } as const
  })
}) {}
