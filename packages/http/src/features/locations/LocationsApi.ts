/**
 * The location master (extension, warehouse cycle §3.1): locations with a type, zone, walk
 * sequence, capacity and status, and emptying one by move tasks.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ContentHeld,
  LocationBeingCounted,
  LocationExists,
  LocationFull,
  LocationInUse,
  LocationNotFound,
  LocationQuery,
  LocationRecord,
  LocationStatusRefuses,
  LocationUpdate,
  MoveAllRequest,
  MovementTaskRecord,
  NewLocation,
  TextIdFromPath
} from "@wms/core"
import { Schema } from "effect"
import { given } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const IdPath = Schema.Struct({ id: TextIdFromPath })

const notFound = "Unknown on the site: 404 `Location with id <id> not found`."

const fields = "`loc_type` is one of `Receiving`, `Storage`, `PickFace`, `Staging`, `Dock`, `LostAndFound`, " +
  "`Quarantine` (`pick_face` is true exactly for `PickFace`; a `Quarantine` location is never a source for " +
  "allocation, replenishment or putaway, and the one place held stock may move to); `sequence` (default 0) orders putaway and walks; `max_tags` " +
  "(distinct tags, i.e. pallets), `max_weight` (kg, by the SKUs' `each_weight`) and `max_volume` (cm³, by " +
  "`each_volume`) are the capacity, null = unlimited; `status` is `Active` (default), `Blocked In` (no receipt, " +
  "positive adjustment or task into it), `Blocked Out` (no allocation, task out of it or negative adjustment) " +
  "or `Blocked` (both); `Counting` is set by counts only: sent here, 409 `Location <id> is being counted`. " +
  "`client_id` dedicates the location to a client of the site (else 400 `Invalid field client_id: …`)."

export class LocationsApi extends HttpApiGroup.make("locations")
  .add(
    HttpApiEndpoint.get("listLocations", "/locations")
      .setUrlParams(LocationQuery)
      .addSuccess(Schema.Array(LocationRecord))
      .annotate(
        OpenApi.Description,
        "The site's locations by `loc_id`, with what is at them: `qty_on_hand`, `tags` (distinct tags on hand), " +
          "`weight` and `volume` of the stock on hand, and `inbound_qty` and `inbound_tags` of the Open movement " +
          "tasks bringing stock there (tags not on hand already); `over_capacity` is true when on hand plus " +
          "inbound exceed a maximum (a count or an adjustment may put it there: they are facts, never refused). " +
          "Optional filters `zone`, `loc_type` and `status`, and `limit`/`offset`."
      )
  )
  .add(
    HttpApiEndpoint.post("createLocation", "/locations")
      .annotate(OpenApi.Summary, "Create location")
      .setPayload(NewLocation)
      .addSuccess(LocationRecord, { status: 201 })
      .annotate(ReadOnlyFields, LocationRecord)
      .annotateContext(given("/locations", "loc_id"))
      .addError(onTheWire(LocationExists))
      .addError(onTheWire(LocationBeingCounted))
      .annotate(
        OpenApi.Description,
        "Makes `loc_id` a managed location: 201 with the record. A `loc_id` without a record stays unmanaged, " +
          "as before locations existed (no status, no capacity, allocatable, never a putaway target). " +
          `${fields} Taken: 409 \`Location <id> already exists\`.`
      )
  )
  .add(
    HttpApiEndpoint.get("getLocation", "/locations/:id")
      .setPath(IdPath)
      .addSuccess(LocationRecord)
      .addError(onTheWire(LocationNotFound))
      .annotate(OpenApi.Description, `One location with what is at it, as the list shows it. ${notFound}`)
  )
  .add(
    HttpApiEndpoint.put("updateLocation", "/locations/:id")
      .setPath(IdPath)
      .setPayload(LocationUpdate)
      .annotate(ReadOnlyFields, LocationRecord)
      .addError(onTheWire(LocationNotFound))
      .addError(onTheWire(LocationBeingCounted))
      .addError(onTheWire(LocationInUse))
      .annotate(
        OpenApi.Description,
        "Replaces every writable field, as on create: an optional field left out becomes null, a status left out " +
          "`Active`. Status changes go through here. `loc_id` in the body may be left out; when sent it must equal " +
          `the path's id (400). ${fields} A location being counted: 409 \`Location <id> is being counted\`; a new ` +
          `\`loc_type\` while it holds stock or is the source or destination of an Open task: 409. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteLocation", "/locations/:id")
      .setPath(IdPath)
      .addError(onTheWire(LocationNotFound))
      .addError(onTheWire(LocationBeingCounted))
      .addError(onTheWire(LocationInUse))
      .annotate(
        OpenApi.Description,
        "204: the location becomes unmanaged. While it holds stock or is the source or destination of an Open " +
          "movement task: 409 `Location <id> holds stock or open tasks`; being counted: 409. " + notFound
      )
  )
  .add(
    HttpApiEndpoint.post("moveAll")`/locations/${HttpApiSchema.param("id", TextIdFromPath)}/move-all`
      .annotate(OpenApi.Summary, "Move all stock of location")
      .setPayload(MoveAllRequest)
      .addSuccess(Schema.Array(MovementTaskRecord), { status: 201 })
      .addError(onTheWire(LocationFull))
      .addError(onTheWire(ContentHeld))
      .addError(onTheWire(LocationStatusRefuses))
      .annotate(
        OpenApi.Description,
        "Empties a location (managed or not): body `{to_loc_id, reason?}`. One Open Move task per content at the " +
          "location with stock available, for all of it, in content_id order: 201 with the tasks (`[]` when nothing " +
          "is available). All or nothing: one refusal refuses all. The source must let stock out and the " +
          "destination take it in (409 `Location <loc_id> is <status>`); the destination's capacity is checked " +
          "over all the tasks together (409 `Location <loc_id> has no room for <qty> of <sku_id>`). The destination " +
          "equal to the location: 400 `Invalid field to_loc_id: is where the stock already is`."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Locations")
  .annotate(
    OpenApi.Description,
    "Extension. A location belongs to the site, not to a client: every scope of the site (a client's included) " +
      "sees and maintains the same locations, and their occupancy counts every client's stock. A site without " +
      "location records behaves exactly as before they existed."
  )
{}
