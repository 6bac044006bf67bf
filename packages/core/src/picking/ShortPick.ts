/**
 * What a short pick does beyond its Lost transaction (warehouse cycle 3.6), inside the
 * confirmation's transaction: the re-allocation of the shortfall by FEFO into the shorted task's
 * wave and claimset, and the control count of the location it was short at.
 */
import { Effect } from "effect"
import type { LocationRepository } from "../locations/LocationRepository.js"
import type { Actor } from "../shared/Tenancy.js"
import type { StockToAllocate } from "../stock/Fefo.js"
import type { InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import type { ShortPickReasonCode } from "../stock/ReasonCode.js"
import { allocateShortfall } from "../waves/Allocation.js"
import type { ClaimRow, WaveRepository } from "../waves/WaveRepository.js"
import type { ControlCounts } from "./ControlCounts.js"

/**
 * The stock of `task`'s SKU, locked with the task's own content in one pass by content id
 * (`lockStock`), before the confirmation writes any content: the lock order of every writer of
 * contents. A short pick re-allocates from it, and a pick at a pick face replenishes from it;
 * locking the task's content first and the rest after deadlocks with another such pick or a wave
 * start on the same SKU.
 */
export const lockStockOfTask = (waves: WaveRepository["Type"], task: ClaimRow) =>
  waves.lockStock(task.site_id, [task.sku_id], task.content_id)

/**
 * Claims `qty` of the shorted task's line again from `stock` of its SKU and client
 * (`lockStockOfTask`), first expiry first out as a wave does, and yields how much it covered.
 * The shorted content is left out, and so is stock at a location that lets none out. New claims
 * join the task's claimset and wave, each with its Allocate transaction (notes `Re-allocation of
 * task <id>`).
 */
export const reallocate = Effect.fnUntraced(function*(
  ports: { readonly waves: WaveRepository["Type"]; readonly inventory: InventoryRepository["Type"] },
  task: ClaimRow,
  stock: ReadonlyArray<StockToAllocate>,
  qty: number,
  today: string,
  createdAt: string
) {
  const claims = allocateShortfall(
    {
      order_ref: task.order_ref,
      order_id: task.order_id,
      line_id: task.line_id,
      client_id: task.client_id,
      sku_id: task.sku_id,
      qty,
      to_loc_id: task.to_loc_id
    },
    stock.filter((content) => content.content_id !== task.content_id),
    today
  )
  if (claims.length === 0) return 0
  const rows = claims.map((claim): Omit<ClaimRow, "id"> => ({
    site_id: task.site_id,
    client_id: task.client_id,
    wave_id: task.wave_id,
    claimset_id: task.claimset_id,
    content_id: claim.content_id,
    order_ref: task.order_ref,
    order_id: task.order_id,
    line_id: task.line_id,
    sku_id: task.sku_id,
    qty: claim.qty,
    status: "allocated",
    tag_id: claim.tag_id,
    from_loc_id: claim.from_loc_id,
    to_loc_id: task.to_loc_id,
    final_loc_id: task.final_loc_id,
    created_at: createdAt
  }))
  yield* ports.waves.insertClaims(rows)
  yield* ports.inventory.changeAllocation(new Map(rows.map((row) => [row.content_id, row.qty])))
  yield* ports.inventory.appendTransactions(rows.map((row) =>
    Ledger.entry("Allocate", row, {
      qty: row.qty,
      from: row.from_loc_id,
      to: row.to_loc_id,
      final: row.final_loc_id,
      order_id: row.order_id,
      line_id: row.line_id,
      // Named after the shorted task, so the ledger tells a re-allocation from a wave's allocation.
      notes: `Re-allocation of task ${task.id}`,
      created_at: createdAt
    })
  ))
  return rows.reduce((sum, row) => sum + row.qty, 0)
})

/** Whether a short pick of this reason asks for a control count: the stock may be elsewhere or gone. */
export const wantsControlCount = (reason: ShortPickReasonCode | null) =>
  reason === null || reason === "Mispick" || reason === "StockOut"

/**
 * Opens the control count of the location a pick was short at, when it is a managed location with
 * no count open already (that one will find the truth just as well).
 */
export const openControlCount = Effect.fnUntraced(function*(
  ports: { readonly locations: LocationRepository["Type"]; readonly counts: ControlCounts["Type"] },
  actor: Actor,
  task: ClaimRow,
  createdAt: string
) {
  const [location] = yield* ports.locations.lockMany(task.site_id, [task.from_loc_id], "share")
  if (location === undefined) return
  yield* ports.counts.open(actor, task.from_loc_id, `Short pick of task ${task.id}`, createdAt)
})
