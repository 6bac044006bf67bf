/**
 * Stock under holds (spec §1), as the writers of stock see it: which hold refuses a move, and the
 * `Hold` ledger rows of stock that enters a held scope.
 */
import type { HeldBy } from "./InventoryRepository.js"
import * as Ledger from "./Ledger.js"

/** The hold a refusal names among those covering a content: the oldest. */
export const firstHold = (holds: ReadonlyArray<HeldBy>): HeldBy =>
  holds.reduce((oldest, hold) => (hold.hold_id < oldest.hold_id ? hold : oldest))

/**
 * The `Hold` rows of `qty` entering a content that `holds` cover and did not cover before (H4):
 * each names its hold in its notes and carries its reason; none changes a quantity.
 */
export const holdEntries = (
  content: Ledger.StockRef & { readonly loc_id: string },
  holds: ReadonlyArray<HeldBy>,
  qty: number,
  createdAt: string
): ReadonlyArray<Ledger.NewLedgerEntry> =>
  holds.map((hold) =>
    Ledger.entry("Hold", content, {
      qty,
      from: content.loc_id,
      reason_code: hold.reason_code,
      notes: `Hold ${hold.hold_id}`,
      created_at: createdAt
    })
  )
