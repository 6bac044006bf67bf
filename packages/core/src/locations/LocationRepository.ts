/**
 * The store port for the location master and the occupancy of locations.
 */
import { Context, type Effect, type Option } from "effect"
import type { RowLock } from "../masterdata/MasterData.js"
import type { ListWindow } from "../shared/Window.js"
import type { LocationFilter, LocationStatus, LocationWithOccupancy, Occupancy, StoredLocation } from "./Location.js"

/** A managed location as the store keeps it, without its occupancy. */
export type LockedLocation = Omit<LocationWithOccupancy, "occupancy">

export class LocationRepository extends Context.Tag("@wms/core/LocationRepository")<LocationRepository, {
  /** The locations of the site, by `loc_id` (byte order), with their occupancy. */
  readonly list: (
    siteId: string,
    filter: LocationFilter,
    window: ListWindow
  ) => Effect.Effect<ReadonlyArray<LocationWithOccupancy>>
  /** The location with its occupancy, locked as `lock` says until the transaction ends. */
  readonly find: (siteId: string, locId: string, lock: RowLock) => Effect.Effect<Option.Option<LocationWithOccupancy>>
  /**
   * The managed locations among `locIds`, locked as `lock` says, in `loc_id` order (the order every
   * writer locks locations in, so two never deadlock), each with its occupancy read after its lock.
   * An id without a record is left out.
   */
  readonly lockMany: (
    siteId: string,
    locIds: ReadonlyArray<string>,
    lock: Exclude<RowLock, "none">
  ) => Effect.Effect<ReadonlyArray<LocationWithOccupancy>>
  /**
   * The managed locations among `locIds`, locked as `lockMany` locks them, without their occupancy:
   * for a writer that checks their status and reads the occupancy only of those it needs
   * (`occupancyOf`).
   */
  readonly lockManyBare: (
    siteId: string,
    locIds: ReadonlyArray<string>,
    lock: Exclude<RowLock, "none">
  ) => Effect.Effect<ReadonlyArray<LockedLocation>>
  /** The occupancy of each of `locIds`, in their order, read now: after their lock, when the caller holds it. */
  readonly occupancyOf: (siteId: string, locIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Occupancy>>
  /**
   * The putaway candidates of the site, locked for update in `loc_id` order: every `Storage`
   * location, `preferred` when it is managed, and the managed ones among `also` (the preferred
   * locations and pick faces of the SKUs a run puts away).
   */
  readonly lockPutawayCandidates: (
    siteId: string,
    preferred: string | null,
    also?: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<LocationWithOccupancy>>
  /** Inserts the location; false when the site has one with its id. */
  readonly insert: (location: StoredLocation) => Effect.Effect<boolean>
  /** Replaces the writable fields; false when the location is gone. */
  readonly update: (location: StoredLocation) => Effect.Effect<boolean>
  /** Whether stock lies at the location or an open movement task starts or ends there. */
  readonly holdsStockOrTasks: (siteId: string, locId: string) => Effect.Effect<boolean>
  readonly remove: (siteId: string, locId: string) => Effect.Effect<void>
  /**
   * Sets the status of a location (counts only: `Counting` at release, the earlier one after), and
   * `last_counted` when `countedAt` is given.
   */
  readonly setStatus: (
    siteId: string,
    locId: string,
    status: LocationStatus,
    countedAt?: string
  ) => Effect.Effect<void>
}>() {}
