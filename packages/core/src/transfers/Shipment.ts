/**
 * Shipping a transfer order (spec §3 T2): what `POST /orders/:id/ship` does in place of a
 * customer shipment. Its picked claims leave as TransferOut transactions, and in the same
 * transaction the destination gets the pre-advice `TR-<source site>-<order_id>`, In Transit, one
 * line per shipped content with its SKU, quantity, tag and expiry. From then until it is received
 * the stock is on neither site (T3).
 */
import { Effect, Option } from "effect"
import type { OrderRow } from "../orders/OrderRepository.js"
import { checkDestinationSkus } from "../orders/TransferOrder.js"
import { PreAdviceExists } from "../receiving/Errors.js"
import { Status } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import type { ClaimRow } from "../waves/WaveRepository.js"
import { transferPreAdviceId } from "./Transfer.js"
import { type TransferLineWrite, TransferRepository } from "./TransferRepository.js"

/**
 * The lines of a transfer's pre-advice: one per content its claims took stock from, in the order
 * of the claims, numbered from 1. A content's expiry is `expiries.get(content_id)`.
 */
export const transferLines = (
  claims: ReadonlyArray<Pick<ClaimRow, "content_id" | "sku_id" | "tag_id" | "qty">>,
  expiries: ReadonlyMap<number, string | null>
): ReadonlyArray<TransferLineWrite> => {
  const byContent = new Map<number, { sku_id: string; tag_id: string; qty: number }>()
  for (const claim of claims) {
    const line = byContent.get(claim.content_id)
    if (line === undefined) {
      byContent.set(claim.content_id, { sku_id: claim.sku_id, tag_id: claim.tag_id, qty: claim.qty })
    } else line.qty += claim.qty
  }
  return [...byContent].map(([contentId, line], i) => ({
    line: i + 1,
    sku_id: line.sku_id,
    qty: line.qty,
    tag_id: line.tag_id,
    expiry_date: expiries.get(contentId) ?? null
  }))
}

/**
 * Ships the transfer `header` (locked by the caller, with `to_site`) of its picked `claims`: the
 * destination must still have every SKU (409), and must not have a pre-advice of the transfer's id
 * (409).
 */
export const shipTransfer = Effect.fnUntraced(function*(
  actor: Actor,
  header: OrderRow & { readonly to_site: string },
  claims: ReadonlyArray<ClaimRow>,
  createdAt: string
) {
  const inventory = yield* InventoryRepository
  const transfers = yield* TransferRepository
  yield* checkDestinationSkus(header.to_site, claims)
  const expiries = new Map<number, string | null>()
  for (const contentId of new Set(claims.map((claim) => claim.content_id))) {
    const content = yield* inventory.findContent(actor.scope, contentId)
    expiries.set(contentId, Option.match(content, { onNone: () => null, onSome: (c) => c.expiry_date }))
  }
  const notes = `Transfer ${header.order_id}`
  yield* inventory.appendTransactions(claims.map((claim) =>
    Ledger.entry("TransferOut", claim, {
      qty: claim.qty,
      from: claim.to_loc_id,
      order_id: claim.order_id,
      line_id: claim.line_id,
      notes,
      created_at: createdAt
    })
  ))
  const preAdviceId = transferPreAdviceId(actor.scope.site_id, header.order_id)
  const inserted = yield* transfers.insertTransfer({
    site_id: header.to_site,
    pre_advice_id: preAdviceId,
    order_id: header.order_id,
    from_site: actor.scope.site_id,
    status_id: Status.InTransit,
    created_at: createdAt,
    created_by: actor.userId,
    lines: transferLines(claims, expiries)
  })
  if (Option.isNone(inserted)) return yield* new PreAdviceExists({ preAdviceId })
})
