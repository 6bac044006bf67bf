/**
 * The store port for cycle counts: the counts, their snapshots with the in-flight deltas, and
 * their recorded lines.
 */
import { Context, type Effect, type Option } from "effect"
import type { LocationType } from "../locations/Location.js"
import type { ListWindow } from "../shared/Window.js"
import type { Content } from "../stock/InventoryRepository.js"
import type { ClaimRow } from "../waves/WaveRepository.js"
import type { CountFilter, NewCount, RecordedLine, SnapshotContent, StoredCount } from "./Count.js"

export class CountRepository extends Context.Tag("@wms/core/CountRepository")<CountRepository, {
  /**
   * Inserts a count and returns its id; none when its location has a count that is not over
   * (a unique key in the store, so two processes can never both open one).
   */
  readonly insert: (count: NewCount) => Effect.Effect<Option.Option<number>>
  /** The count of the site, locked until the transaction ends when `lock` is true. */
  readonly find: (siteId: string, countId: number, lock: boolean) => Effect.Effect<Option.Option<StoredCount>>
  /** The counts of the site that pass the filter, by id. */
  readonly list: (siteId: string, filter: CountFilter, window: ListWindow) => Effect.Effect<ReadonlyArray<StoredCount>>
  /**
   * Up to `max` managed locations to count, by `last_counted` (never counted first), then `loc_id`
   * (byte order), leaving out those with a count that is not over.
   */
  readonly planCandidates: (
    siteId: string,
    filter: { readonly zone: string | null; readonly loc_type: LocationType | null },
    max: number
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Writes the count's changing fields: status, index, reason code, instants, approver. */
  readonly update: (count: StoredCount) => Effect.Effect<void>
  /** The snapshot of one index of the count, by content id. */
  readonly snapshot: (countId: number, countIndex: number) => Effect.Effect<ReadonlyArray<SnapshotContent>>
  readonly putSnapshot: (
    countId: number,
    countIndex: number,
    contents: ReadonlyArray<SnapshotContent>
  ) => Effect.Effect<void>
  /** The recorded lines of one index of the count. */
  readonly lines: (countId: number, countIndex: number) => Effect.Effect<ReadonlyArray<RecordedLine>>
  /** Stores lines of one index: a line replaces the one of the same SKU and tag (the last write wins). */
  readonly putLines: (countId: number, countIndex: number, lines: ReadonlyArray<RecordedLine>) => Effect.Effect<void>
  /**
   * Records a change of `delta` to a locked content's `qty` against the count of its location that
   * is Counting or Pending Approval and covers its SKU, if any: its in-flight delta.
   */
  readonly addInFlight: (
    content: Pick<Content, "site_id" | "client_id" | "content_id" | "sku_id" | "loc_id" | "tag_id" | "expiry_date">,
    delta: number
  ) => Effect.Effect<void>
  /** The allocated (open) claims on these contents, by id; not locked. */
  readonly openClaimsOn: (contentIds: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<ClaimRow>>
}>() {}
