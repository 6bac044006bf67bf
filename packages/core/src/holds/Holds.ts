/**
 * Holds (spec §1): the `Holds` service creating, listing and releasing them. A hold changes no
 * quantity: it writes a `Hold` ledger row per content it covers when it begins (and a `Release`
 * row per content when it ends), and the stores leave held stock out of every allocation.
 *
 * A creation takes the site's holds lock (`lockHoldsOf`) before it reads what it covers, so no
 * wave start or replenishment reads the site's free stock between the two.
 */
import { Clock, Effect, Option } from "effect"
import { SkuNotFound } from "../masterdata/Errors.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { invalidField, InvalidInput } from "../shared/Errors.js"
import { EventPublisher } from "../shared/Events.js"
import { formatDate, formatDateTime, TimeZone } from "../shared/Formats.js"
import type { ClientId } from "../shared/Ids.js"
import { Status, statusDescription } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { ContentNotFound } from "../stock/Errors.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import { HoldNotFound, HoldWrongState } from "./Errors.js"
import type { Hold, HoldQuery, NewHold, ReleaseHold } from "./Hold.js"
import { HoldDeallocation } from "./HoldDeallocation.js"
import { HoldRepository, type LotMovement, type StoredHold } from "./HoldRepository.js"
import type { Lot, NewRecall, Recall, Trace, TraceQuery, TraceReceivedType } from "./Trace.js"

/** A hold as the API shows it. */
export const toHold = (row: StoredHold, timeZone: string): Hold => ({
  id: row.id,
  client_id: row.client_id,
  sku_id: row.sku_id,
  tag_id: row.tag_id,
  expiry_date: row.expiry_date,
  loc_id: row.loc_id,
  content_id: row.content_id,
  reason_code: row.reason_code,
  notes: row.notes,
  status: statusDescription(row.status_id),
  status_id: row.status_id,
  deallocate: row.deallocate,
  created_by: row.created_by,
  creation_datetime: formatDateTime(row.created_at, timeZone),
  released_by: row.released_by,
  release_datetime: row.released_at === null ? null : formatDateTime(row.released_at, timeZone),
  release_notes: row.release_notes,
  qty_covered: row.qty_covered
})

/**
 * Where a received row of a trace came from, read from its ledger row as receiving wrote it: a
 * `Receipt`'s notes `PreAdvice <id>`, a `Return`'s `Return <id> line <n>` and the order it came
 * back from, a `TransferIn`'s transfer order.
 */
const receivedFrom = (
  type: TraceReceivedType,
  row: Pick<LotMovement, "notes" | "order_id">
): Pick<Trace["received"][number], "pre_advice_id" | "return_id" | "order_id"> => {
  switch (type) {
    case "Receipt":
      return { pre_advice_id: row.notes?.match(/^PreAdvice (.+)$/)?.[1] ?? null, return_id: null, order_id: null }
    case "Return":
      return {
        pre_advice_id: null,
        return_id: row.notes?.match(/^Return (.+) line \d+$/)?.[1] ?? null,
        order_id: row.order_id
      }
    case "TransferIn":
      return { pre_advice_id: null, return_id: null, order_id: row.order_id }
  }
}

/**
 * The scope of a new hold, checked before any read (400 before 404): at least one of `content_id`,
 * `sku_id` and `loc_id`; `content_id` alone; a tag or an expiry date only with a SKU.
 */
const checkScope = (input: NewHold) => {
  if (input.content_id === null && input.sku_id === null && input.loc_id === null) {
    return new InvalidInput({ message: "Missing field content_id, sku_id or loc_id" })
  }
  if (
    input.content_id !== null &&
    (input.sku_id !== null || input.tag_id !== null || input.expiry_date !== null || input.loc_id !== null)
  ) {
    return invalidField("content_id", "cannot be combined with sku_id, tag_id, expiry_date or loc_id")
  }
  if (input.sku_id === null && (input.tag_id !== null || input.expiry_date !== null)) {
    return new InvalidInput({ message: "Missing field sku_id" })
  }
  return Effect.void
}

/** The ledger rows of a hold beginning (`Hold`) or ending (`Release`) on the contents with stock. */
const ledgerRows = (
  type: "Hold" | "Release",
  hold: Pick<StoredHold, "id" | "reason_code">,
  contents: ReadonlyArray<Content>,
  createdAt: string
) =>
  contents.filter((content) => content.qty > 0).map((content) =>
    Ledger.entry(type, content, {
      qty: content.qty,
      from: content.loc_id,
      reason_code: hold.reason_code,
      notes: `Hold ${hold.id}`,
      created_at: createdAt
    })
  )

export class Holds extends Effect.Service<Holds>()("@wms/core/Holds", {
  effect: Effect.gen(function*() {
    const holds = yield* HoldRepository
    const inventory = yield* InventoryRepository
    const skus = yield* SkuRepository
    const events = yield* EventPublisher
    const deallocation = yield* HoldDeallocation
    const { atomically } = yield* Transactor

    const found = Effect.fnUntraced(function*(actor: Actor, holdId: number, lock: boolean) {
      const hold = yield* holds.find(actor.scope, holdId, lock)
      if (Option.isNone(hold)) return yield* new HoldNotFound({ holdId })
      return hold.value
    })

    const list = Effect.fnUntraced(function*(actor: Actor, query: HoldQuery) {
      const { limit, offset, status_id, ...filter } = query
      const timeZone = yield* TimeZone
      const rows = yield* holds.list(actor.scope, { ...filter, status_id: status_id ?? Status.Active }, {
        limit,
        offset
      })
      return rows.map((row) => toHold(row, timeZone))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, holdId: number) {
      return toHold(yield* found(actor, holdId, false), yield* TimeZone)
    })

    /** Creates the hold in the caller's transaction: a recall's too. */
    const createIn = Effect.fnUntraced(function*(actor: Actor, input: NewHold) {
      yield* checkScope(input)
      let owner: ClientId | null = actor.scope.client_id
      if (input.content_id !== null) {
        const content = yield* inventory.findContent(actor.scope, input.content_id)
        if (Option.isNone(content)) return yield* new ContentNotFound({ contentId: input.content_id })
        // A content hold belongs to the content's owner, whoever of the site makes it.
        owner = content.value.client_id
      } else if (input.sku_id !== null && Option.isNone(yield* skus.find(actor.scope.site_id, input.sku_id))) {
        return yield* new SkuNotFound({ skuId: input.sku_id })
      }
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      const deallocate = input.deallocate === true
      // H2: the picks and movement tasks on what the hold covers, locked before the holds lock and the
      // contents, as every writer of them locks them.
      const scope = {
        client_id: owner,
        content_id: input.content_id,
        sku_id: input.sku_id,
        tag_id: input.tag_id,
        expiry_date: input.expiry_date,
        loc_id: input.loc_id
      }
      const prepared = deallocate ? yield* deallocation.prepare(actor.scope.site_id, scope) : undefined
      yield* holds.lockHoldsOf(actor.scope.site_id)
      const holdId = yield* holds.insert({
        site_id: actor.scope.site_id,
        ...scope,
        reason_code: input.reason_code,
        notes: input.notes,
        deallocate,
        created_by: actor.userId,
        created_at: createdAt
      })
      if (input.content_id !== null) yield* holds.coverContents(holdId, [input.content_id])
      const covered = yield* holds.coveredContents(holdId, true)
      if (prepared !== undefined) yield* deallocation.deallocate(actor, prepared, covered, holdId, createdAt)
      yield* inventory.appendTransactions(
        ledgerRows("Hold", { id: holdId, reason_code: input.reason_code }, covered, createdAt)
      )
      const record = toHold(yield* Effect.orDie(found(actor, holdId, false)), yield* TimeZone)
      yield* events.publish({
        event_type: "hold_created",
        site_id: actor.scope.site_id,
        client_id: owner,
        data: record
      })
      return record
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewHold) {
      return yield* createIn(actor, input)
    }, atomically)

    const release = Effect.fnUntraced(function*(actor: Actor, holdId: number, input: ReleaseHold) {
      const hold = yield* found(actor, holdId, true)
      if (hold.status_id !== Status.Active) {
        return yield* new HoldWrongState({ holdId, status: statusDescription(hold.status_id) })
      }
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      const covered = yield* holds.coveredContents(holdId, false)
      if (
        !(yield* holds.release(holdId, {
          released_by: actor.userId,
          released_at: createdAt,
          release_notes: input.notes
        }))
      ) {
        const now = yield* Effect.orDie(found(actor, holdId, false))
        return yield* new HoldWrongState({ holdId, status: statusDescription(now.status_id) })
      }
      yield* inventory.appendTransactions(ledgerRows("Release", hold, covered, createdAt))
      yield* events.publish({
        event_type: "hold_released",
        site_id: hold.site_id,
        client_id: hold.client_id,
        data: toHold(yield* Effect.orDie(found(actor, holdId, false)), yield* TimeZone)
      })
    }, atomically)

    const traceOf = Effect.fnUntraced(function*(actor: Actor, lot: Lot) {
      const timeZone = yield* TimeZone
      const { contents, movements } = yield* holds.lotHistory(actor.scope, lot)
      return {
        received: movements.flatMap((row) =>
          row.transaction_type === "Receipt" || row.transaction_type === "Return" ||
            row.transaction_type === "TransferIn"
            ? [{
              date: formatDate(row.created_at, timeZone),
              transaction_type: row.transaction_type,
              ...receivedFrom(row.transaction_type, row),
              qty: row.qty,
              content_id: row.content_id
            }]
            : []
        ),
        on_hand: contents.map((content) => ({
          content_id: content.content_id,
          loc_id: content.loc_id,
          qty: content.qty,
          qty_allocated: content.qty_allocated,
          held: content.held
        })),
        shipped: movements.flatMap((row) =>
          row.transaction_type === "Shipment" || row.transaction_type === "TransferOut"
            ? [{
              date: formatDate(row.created_at, timeZone),
              transaction_type: row.transaction_type,
              order_id: row.order_id ?? "",
              customer_id: row.customer_id,
              to_site: row.to_site,
              line: row.line_id,
              qty: row.qty
            }]
            : []
        )
      } satisfies Trace
    })

    const trace = Effect.fnUntraced(function*(actor: Actor, query: TraceQuery) {
      if (Option.isNone(yield* skus.find(actor.scope.site_id, query.sku_id))) {
        return yield* new SkuNotFound({ skuId: query.sku_id })
      }
      return yield* traceOf(actor, {
        sku_id: query.sku_id,
        tag_id: query.tag_id ?? null,
        expiry_date: query.expiry_date ?? null
      })
    })

    /** A recall: an Active lot hold with `deallocate`, and the lot's trace, in one transaction. */
    const recall = Effect.fnUntraced(function*(actor: Actor, input: NewRecall) {
      const hold = yield* createIn(actor, { ...input, content_id: null, loc_id: null, deallocate: true }).pipe(
        // A lot hold names no content.
        Effect.catchTag("ContentNotFound", Effect.die)
      )
      return { hold, trace: yield* traceOf(actor, input) } satisfies Recall
    }, atomically)

    return {
      listHolds: list,
      getHold: get,
      createHold: create,
      releaseHold: release,
      getTrace: trace,
      createRecall: recall,
      /** Creates a hold in the caller's transaction (a quarantined return's). */
      createHoldIn: createIn
    } as const
  })
}) {}
