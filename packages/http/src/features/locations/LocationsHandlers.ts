import { Locations, MovementTasks } from "@wms/core"
import type { LocationQuery, LocationUpdate, MoveAllRequest, NewLocation } from "@wms/core"
import { Effect } from "effect"
import { type Body, byText } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { LocationsApi } from "./LocationsApi.js"

export const LocationsTable = Effect.map(Effect.all([Locations, MovementTasks]), ([locations, tasks]) => ({
  listLocations: (actor, { urlParams }) => locations.listLocations(actor, urlParams),
  createLocation: (actor, { payload }) => locations.createLocation(actor, payload),
  getLocation: (actor, { path }) => locations.getLocation(actor, path.id),
  updateLocation: (actor, { path, payload }) => locations.updateLocation(actor, path.id, payload),
  deleteLocation: (actor, { path }) => locations.deleteLocation(actor, path.id),
  moveAll: (actor, { path, payload }) => tasks.moveAll(actor, path.id, payload)
} satisfies Table<typeof LocationsApi>))

/** The facade's methods of `locations`: how each one's arguments make its endpoint's input. */
export const LocationsMethods = {
  /** The site's locations with their occupancy; optional filters `zone`, `loc_type`, `status`. */
  listLocations: (query: LocationQuery = {}) => ({ urlParams: query }),
  getLocation: byText,
  /** Resolves to the new location's record. */
  createLocation: (payload: Body<typeof NewLocation>) => ({ payload }),
  /** Replaces every writable field (`PUT /locations/:id`): status changes go through here. */
  updateLocation: (id: string, payload: Body<typeof LocationUpdate>) => ({ ...byText(id), payload }),
  deleteLocation: byText,
  /** A Move task per content at the location with stock available; resolves to the tasks. */
  moveAll: (id: string, payload: Body<typeof MoveAllRequest>) => ({ ...byText(id), payload })
} satisfies Methods<typeof LocationsApi>

export const LocationsHandlers = { table: LocationsTable, methods: LocationsMethods }
