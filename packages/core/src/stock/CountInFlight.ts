/**
 * The port through which a confirmed pick or move tells a cycle count of the stock it changed.
 * The stock declares it and the counts implement it (`counts/CountInFlightLive.ts`), so that the
 * writers of stock (movement, picking) know nothing of counts, which sit above them.
 */
import { Context, type Effect } from "effect"
import type { Content } from "./InventoryRepository.js"

export class CountInFlight extends Context.Tag("@wms/core/CountInFlight")<CountInFlight, {
  /**
   * Records a change of `delta` to a locked content's `qty` against the count of its location that
   * is Counting or Pending Approval and covers its SKU, if any: its in-flight delta.
   */
  readonly addInFlight: (
    content: Pick<Content, "site_id" | "client_id" | "content_id" | "sku_id" | "loc_id" | "tag_id" | "expiry_date">,
    delta: number
  ) => Effect.Effect<void>
}>() {}
