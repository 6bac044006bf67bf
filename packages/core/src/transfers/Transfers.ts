/**
 * Transfers between sites (spec §3): the `Transfers` service of what is in transit and of ending
 * a transfer short. Creating, allocating, picking and shipping a transfer order are the orders'
 * and picking's own endpoints; receiving it is the pre-advices' receipt.
 */
import { Effect, Option } from "effect"
import { PreAdviceNotFound, PreAdviceNotOpen } from "../receiving/Errors.js"
import { ReceivingRepository } from "../receiving/ReceivingRepository.js"
import { formatDateTime, TimeZone } from "../shared/Formats.js"
import { Status, statusDescription, statusObject } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { PreAdviceNotTransfer } from "./Errors.js"
import type { CloseTransferRequest, InTransitLine, InTransitQuery } from "./Transfer.js"
import { TransferRepository } from "./TransferRepository.js"

export class Transfers extends Effect.Service<Transfers>()("@wms/core/Transfers", {
  effect: Effect.gen(function*() {
    const transfers = yield* TransferRepository
    const receipts = yield* ReceivingRepository
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone

    /**
     * The lines in transit to or from the caller's site (T3). A transfer belongs to its sites, not to
     * a client, so a client's scope sees none.
     */
    const listInTransit = Effect.fnUntraced(function*(actor: Actor, query: InTransitQuery) {
      if (actor.scope.client_id !== null) return []
      const rows = yield* transfers.inTransit(actor.scope.site_id, query)
      return rows.map((row): InTransitLine => ({
        pre_advice_id: row.pre_advice_id,
        order_id: row.order_id,
        from_site: row.from_site,
        to_site: row.to_site,
        pre_advice_status: statusObject(row.status_id),
        line: row.line,
        sku_id: row.sku_id,
        tag_id: row.tag_id,
        expiry_date: row.expiry_date,
        qty_shipped: row.qty,
        qty_received: row.qty_received,
        qty_in_transit: row.qty - row.qty_received,
        shipped_datetime: formatDateTime(row.created_at, timeZone)
      }))
    })

    /**
     * Short-closes a transfer's pre-advice (T5): what its lines did not receive is written off as
     * their `qty_lost`, no stock appears anywhere, and it becomes Complete (20) with the reason.
     * Only an In Transit or In Receipt transfer is closed; under the pre-advice's lock, so a receipt
     * of it runs wholly before or wholly after.
     */
    const closeTransfer = Effect.fnUntraced(function*(actor: Actor, preAdviceId: string, body: CloseTransferRequest) {
      const found = yield* receipts.lockPreAdvice(actor.scope, preAdviceId)
      if (Option.isNone(found)) return yield* new PreAdviceNotFound({ preAdviceId })
      const preAdvice = found.value
      if (preAdvice.transfer === null) return yield* new PreAdviceNotTransfer({ preAdviceId })
      if (preAdvice.status_id !== Status.InTransit && preAdvice.status_id !== Status.InReceipt) {
        return yield* new PreAdviceNotOpen({
          preAdviceId,
          status: statusDescription(preAdvice.status_id),
          rule: "only an In Transit or In Receipt transfer can be closed"
        })
      }
      yield* transfers.close(preAdvice.ref, Status.Complete, body.reason_code)
    }, atomically)

    return { listInTransit, closeTransfer } as const
  })
}) {}
