/**
 * The store port for SKUs, whose ids are unique per site.
 */
import { Context, type Effect, type Option } from "effect"
import type { SiteId } from "../shared/Ids.js"
import type { Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { Sku, SkuListItem } from "./Sku.js"

export class SkuRepository extends Context.Tag("@wms/core/SkuRepository")<SkuRepository, {
  /** The SKUs visible in the scope, by id, with their group's description. */
  readonly list: (scope: Scope, window: ListWindow) => Effect.Effect<ReadonlyArray<SkuListItem>>
  /** Looks a SKU of the site up, whichever client owns it. */
  readonly find: (siteId: SiteId, skuId: string) => Effect.Effect<Option.Option<Sku>>
  /** The SKUs of the site among `skuIds`, by id, whichever client owns them; an unknown id is absent. */
  readonly findMany: (siteId: SiteId, skuIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Sku>>
  /** Inserts the SKU; false when the site has a SKU of that id already. */
  readonly insert: (siteId: SiteId, sku: Sku) => Effect.Effect<boolean>
  /** Replaces every field but the id and the owner (SKUs are never deleted). */
  readonly update: (siteId: SiteId, sku: Sku) => Effect.Effect<void>
}>() {}
