/**
 * The location master (extension, warehouse cycle §3.1). A location belongs to its site, not to a
 * client, as carriers do: every scope of the site, a client's included, sees and maintains the
 * same locations, and their occupancy counts every client's stock. `client_id` dedicates a
 * location to one client of the site. `Counting` is set and cleared by counts only.
 */
import { Effect, Option } from "effect"
import { SiteRepository } from "../admin/SiteRepository.js"
import { invalidField } from "../shared/Errors.js"
import { formatDateTime, TimeZone } from "../shared/Formats.js"
import type { ClientId } from "../shared/Ids.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { overCapacity } from "./Capacity.js"
import { LocationBeingCounted, LocationExists, LocationInUse, LocationNotFound } from "./Errors.js"
import type {
  LocationQuery,
  LocationRecord,
  LocationUpdate,
  LocationWithOccupancy,
  NewLocation,
  StoredLocation
} from "./Location.js"
import { LocationRepository } from "./LocationRepository.js"

/** A location as the API shows it: its fields, its occupancy, and whether that exceeds a limit. */
export const toLocationRecord = (location: LocationWithOccupancy, timeZone: string): LocationRecord => ({
  loc_id: location.loc_id,
  description: location.description,
  loc_type: location.loc_type,
  zone: location.zone,
  pick_face: location.loc_type === "PickFace",
  sequence: location.sequence,
  max_tags: location.max_tags,
  max_weight: location.max_weight,
  max_volume: location.max_volume,
  status: location.status,
  client_id: location.client_id,
  qty_on_hand: location.occupancy.qty_on_hand,
  tags: location.occupancy.tags,
  weight: location.occupancy.weight,
  volume: location.occupancy.volume,
  inbound_qty: location.occupancy.inbound_qty,
  inbound_tags: location.occupancy.inbound_tags,
  over_capacity: overCapacity(location),
  last_counted: location.last_counted === null ? null : formatDateTime(location.last_counted, timeZone)
})

export class Locations extends Effect.Service<Locations>()("@wms/core/Locations", {
  effect: Effect.gen(function*() {
    const repository = yield* LocationRepository
    const sites = yield* SiteRepository
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone
    const toRecord = (location: LocationWithOccupancy) => toLocationRecord(location, timeZone)

    const notFound = (locId: string) => new LocationNotFound({ locId })
    const beingCounted = (locId: string) => new LocationBeingCounted({ locId })

    /** The stored location a write makes: the body's fields, with a dedication to a client of the site. */
    const storedOf = Effect.fnUntraced(function*(
      actor: Actor,
      locId: string,
      input: NewLocation | LocationUpdate
    ) {
      const siteId = actor.scope.site_id
      if (input.client_id !== null && !(yield* sites.clientOfSite(siteId, input.client_id as ClientId))) {
        return yield* invalidField("client_id", `client ${input.client_id} does not exist on site ${siteId}`)
      }
      return {
        site_id: siteId,
        loc_id: locId,
        description: input.description,
        loc_type: input.loc_type,
        zone: input.zone,
        sequence: input.sequence,
        max_tags: input.max_tags,
        max_weight: input.max_weight,
        max_volume: input.max_volume,
        status: input.status,
        client_id: input.client_id
      } satisfies StoredLocation
    })

    const existing = Effect.fnUntraced(function*(actor: Actor, locId: string, lock: "none" | "update") {
      const found = yield* repository.find(actor.scope.site_id, locId, lock)
      if (Option.isNone(found)) return yield* notFound(locId)
      return found.value
    })

    const list = Effect.fnUntraced(function*(actor: Actor, query: LocationQuery) {
      const { limit, offset, ...filter } = query
      return (yield* repository.list(actor.scope.site_id, filter, { limit, offset })).map(toRecord)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, locId: string) {
      return toRecord(yield* existing(actor, locId, "none"))
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewLocation) {
      const location = yield* storedOf(actor, input.loc_id, input)
      if (location.status === "Counting") return yield* beingCounted(input.loc_id)
      if (!(yield* repository.insert(location))) return yield* new LocationExists({ locId: input.loc_id })
      // Stock may lie at the id already: a site lists its locations gradually.
      const created = yield* repository.find(actor.scope.site_id, input.loc_id, "none")
      if (Option.isNone(created)) return yield* Effect.dieMessage(`location ${input.loc_id} is gone after its insert`)
      return toRecord(created.value)
    }, atomically)

    const replace = Effect.fnUntraced(function*(actor: Actor, locId: string, input: LocationUpdate) {
      if (input.loc_id !== undefined && input.loc_id !== locId) {
        return yield* invalidField("loc_id", `must be ${locId}, the id in the path`)
      }
      const location = yield* storedOf(actor, locId, input)
      // The lock makes a task or a wave start that reads the status wait for the change, or be seen by it.
      const current = yield* existing(actor, locId, "update")
      if (current.status === "Counting" || location.status === "Counting") return yield* beingCounted(locId)
      if (location.loc_type !== current.loc_type && (yield* repository.holdsStockOrTasks(actor.scope.site_id, locId))) {
        return yield* new LocationInUse({ locId })
      }
      if (!(yield* repository.update(location))) return yield* notFound(locId)
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, locId: string) {
      const current = yield* existing(actor, locId, "update")
      if (current.status === "Counting") return yield* beingCounted(locId)
      if (yield* repository.holdsStockOrTasks(actor.scope.site_id, locId)) return yield* new LocationInUse({ locId })
      yield* repository.remove(actor.scope.site_id, locId)
    }, atomically)

    return {
      listLocations: list,
      getLocation: get,
      createLocation: create,
      updateLocation: replace,
      deleteLocation: remove,
      /** @deprecated Use `listLocations`. */
      list,
      /** @deprecated Use `getLocation`. */
      get,
      /** @deprecated Use `createLocation`. */
      create,
      /** @deprecated Use `updateLocation`. */
      replace,
      /** @deprecated Use `deleteLocation`. */
      remove
    } as const
  })
}) {}
