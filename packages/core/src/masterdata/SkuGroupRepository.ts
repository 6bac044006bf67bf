/**
 * The store port for SKU groups, whose ids are unique per site.
 */
import { Context, type Effect, type Option } from "effect"
import type { SiteId } from "../shared/Ids.js"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { RowLock } from "./MasterData.js"
import type { SkuGroup } from "./SkuGroup.js"

export class SkuGroupRepository extends Context.Tag("@wms/core/SkuGroupRepository")<SkuGroupRepository, {
  /** The groups visible in the scope, by id. */
  readonly list: (scope: Scope, window: ListWindow) => Effect.Effect<ReadonlyArray<SkuGroup>>
  /** Looks a group of the site up, whichever client owns it. */
  readonly find: (siteId: SiteId, skuGroupId: string, lock: RowLock) => Effect.Effect<Option.Option<SkuGroup>>
  /** The next generated group id of the site, counted atomically: `"1"`, `"2"`, … */
  readonly nextId: (siteId: SiteId) => Effect.Effect<string>
  /** Inserts the group; false when the site has a group of that id already. */
  readonly insert: (owner: Owner, group: SkuGroup) => Effect.Effect<boolean>
  /** Sets the description; false when the group is gone. */
  readonly update: (siteId: SiteId, skuGroupId: string, description: string) => Effect.Effect<boolean>
  /** Whether a SKU of the site is in the group. */
  readonly isUsed: (siteId: SiteId, skuGroupId: string) => Effect.Effect<boolean>
  readonly remove: (siteId: SiteId, skuGroupId: string) => Effect.Effect<void>
}>() {}
