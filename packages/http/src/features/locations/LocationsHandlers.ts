import { Locations, MovementTasks } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { LocationsApi } from "./LocationsApi.js"

export const LocationsTable = Effect.map(Effect.all([Locations, MovementTasks]), ([locations, tasks]) => ({
  listLocations: (actor, { urlParams }) => locations.listLocations(actor, urlParams),
  createLocation: (actor, { payload }) => locations.createLocation(actor, payload),
  getLocation: (actor, { path }) => locations.getLocation(actor, path.id),
  updateLocation: (actor, { path, payload }) => locations.updateLocation(actor, path.id, payload),
  deleteLocation: (actor, { path }) => locations.deleteLocation(actor, path.id),
  moveAll: (actor, { path, payload }) => tasks.moveAll(actor, path.id, payload)
} satisfies Table<typeof LocationsApi>))
