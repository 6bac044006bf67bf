/**
 * The store port for stock contents, the transaction ledger and lost-and-found items.
 */
import { Context, type Effect, type Option } from "effect"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { LedgerEntry, NewLedgerEntry } from "./Ledger.js"
import type { ContentQuantities } from "./Stock.js"

/** A stock content as the store keeps it; `created_at` is a UTC ISO instant. */
export interface Content extends ContentQuantities, Owner {
  readonly content_id: number
  readonly sku_id: string
  readonly loc_id: string
  readonly tag_id: string
  readonly expiry_date: string | null
  readonly created_at: string
}

/** A content with its SKU's description, as the overview shows it. */
export interface ContentWithDescription extends Content {
  readonly description: string | null
  /** The ids of the Active holds covering it, ascending (spec §1 H6); none when absent. */
  readonly holds?: ReadonlyArray<number>
}

/** Where a content is: the key that tells contents of one SKU apart. */
export interface ContentKey {
  readonly sku_id: string
  readonly loc_id: string
  /** `null`: any tag (an untagged adjustment adds to what lies at the location). */
  readonly tag_id: string | null
  readonly expiry_date: string | null
}

/** An Active hold that covers a content (spec §1). */
export interface HeldBy {
  readonly hold_id: number
  readonly reason_code: string
}

/** Stock taken off a content that nobody can account for (a short pick). */
export interface LostAndFoundItem extends Owner {
  readonly id: number
  readonly content_id: number
  readonly sku_id: string
  readonly loc_id: string
  readonly tag_id: string
  readonly qty: number
  readonly created_at: string
  readonly created_by: string
  readonly notes: string | null
}

export class InventoryRepository extends Context.Tag("@wms/core/InventoryRepository")<InventoryRepository, {
  /** Contents of the scope that hold stock, by id. */
  readonly listContents: (scope: Scope) => Effect.Effect<ReadonlyArray<ContentWithDescription>>
  readonly findContent: (scope: Scope, contentId: number) => Effect.Effect<Option.Option<ContentWithDescription>>
  /** Contents of the scope that hold stock at the location, by id; not locked. */
  readonly listContentsAt: (scope: Scope, locId: string) => Effect.Effect<ReadonlyArray<Content>>
  /** The content, locked against other writers until the transaction ends. */
  readonly lockContent: (scope: Scope, contentId: number) => Effect.Effect<Option.Option<Content>>
  /**
   * The content of an owner at a key (the oldest, when several match), locked against other
   * writers until the transaction ends.
   */
  readonly lockContentAt: (owner: Owner, key: ContentKey) => Effect.Effect<Option.Option<Content>>
  /** Inserts a content and returns its id. */
  readonly insertContent: (content: Omit<Content, "content_id">) => Effect.Effect<number>
  /** Inserts contents, in their order, and returns their ids in that order. */
  readonly insertContents: (
    contents: ReadonlyArray<Omit<Content, "content_id">>
  ) => Effect.Effect<ReadonlyArray<number>>
  readonly setQuantities: (contentId: number, quantities: ContentQuantities) => Effect.Effect<void>
  /** Sets the quantities of many contents, by content id, at once. */
  readonly setQuantitiesOf: (quantities: ReadonlyMap<number, ContentQuantities>) => Effect.Effect<void>
  /** A tag id for stock received without one, unique per site. */
  readonly nextTagId: (siteId: string) => Effect.Effect<string>
  /** `count` tag ids as `nextTagId` gives them one after the other, taken at once. */
  readonly nextTagIds: (siteId: string, count: number) => Effect.Effect<ReadonlyArray<string>>
  /** Appends a transaction to the ledger (which is never changed) and returns its id. */
  readonly appendTransaction: (entry: NewLedgerEntry) => Effect.Effect<number>
  /** Appends many transactions at once, in their order. */
  readonly appendTransactions: (entries: ReadonlyArray<NewLedgerEntry>) => Effect.Effect<void>
  /**
   * Changes the allocation of contents by signed amounts, all or nothing: it dies when any content
   * would leave the stock rule, which the caller's locks and checks must make impossible.
   */
  readonly changeAllocation: (changes: ReadonlyMap<number, number>) => Effect.Effect<void>
  /**
   * The Active holds covering each of these contents, by hold id; a content no hold covers is
   * absent. Read in a statement of its own, after the caller's locks.
   */
  readonly holdsOn: (contentIds: ReadonlyArray<number>) => Effect.Effect<ReadonlyMap<number, ReadonlyArray<HeldBy>>>
  /**
   * Makes every Active content hold covering `from` cover `to` as well (a movement from a held
   * content, spec §1 H3), and yields those that did not cover it yet.
   */
  readonly carryContentHolds: (from: number, to: number) => Effect.Effect<ReadonlyArray<HeldBy>>
  readonly listTransactions: (scope: Scope) => Effect.Effect<ReadonlyArray<LedgerEntry>>
  readonly findTransaction: (scope: Scope, id: number) => Effect.Effect<Option.Option<LedgerEntry>>
  readonly insertLostAndFound: (item: Omit<LostAndFoundItem, "id">) => Effect.Effect<number>
  readonly listLostAndFound: (
    scope: Scope
  ) => Effect.Effect<ReadonlyArray<LostAndFoundItem & { readonly description: string | null }>>
  readonly findLostAndFound: (
    scope: Scope,
    id: number
  ) => Effect.Effect<Option.Option<LostAndFoundItem & { readonly description: string | null }>>
}>() {}
