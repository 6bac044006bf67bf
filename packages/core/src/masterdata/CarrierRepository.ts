/**
 * The store port for carriers, which belong to a site.
 */
import { Context, type Effect, type Option } from "effect"
import type { SiteId } from "../shared/Ids.js"
import type { ListWindow } from "../shared/Window.js"
import type { Carrier, CarrierInput } from "./Carrier.js"
import type { RowLock } from "./MasterData.js"

export class CarrierRepository extends Context.Tag("@wms/core/CarrierRepository")<CarrierRepository, {
  /** The carriers of the site, by id. */
  readonly list: (siteId: SiteId, window: ListWindow) => Effect.Effect<ReadonlyArray<Carrier>>
  /** Looks a carrier up by id, on any site. */
  readonly find: (id: number, lock: RowLock) => Effect.Effect<Option.Option<Carrier>>
  /** Inserts a carrier of the site and returns its id. */
  readonly insert: (siteId: SiteId, input: CarrierInput) => Effect.Effect<number>
  /** Replaces the writable fields; false when the carrier is gone. */
  readonly update: (id: number, input: CarrierInput) => Effect.Effect<boolean>
  /** Whether an order refers to the carrier. */
  readonly isReferenced: (id: number) => Effect.Effect<boolean>
  readonly remove: (id: number) => Effect.Effect<void>
}>() {}
