/**
 * Carriers (§2.9, §4.7 of the API document).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Carrier, CarrierInput, CarrierInUse, CarrierNotFound, ListWindow, RecordIdFromPath } from "@wms/core"
import { Schema } from "effect"
import { generated } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const IdPath = Schema.Struct({ id: RecordIdFromPath })

const notFound = "Missing on the site: 404 `Carrier with id <id> not found`; a non-integer id: 400."

export class CarriersApi extends HttpApiGroup.make("carriers")
  .add(
    HttpApiEndpoint.get("listCarriers", "/carriers")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(Carrier))
      .annotate(OpenApi.Description, "The carriers of the site, by id; optional `limit` and `offset`.")
  )
  .add(
    HttpApiEndpoint.post("createCarrier", "/carriers")
      .setPayload(CarrierInput)
      .annotate(ReadOnlyFields, Carrier)
      .annotateContext(generated("/carriers"))
      .annotate(
        OpenApi.Description,
        "Creates a carrier of the site. `name` is required and not blank; the other fields are optional, and an " +
          "absent, null or empty one is stored as null."
      )
  )
  .add(
    HttpApiEndpoint.get("getCarrier", "/carriers/:id")
      .setPath(IdPath)
      .addSuccess(Carrier)
      .addError(onTheWire(CarrierNotFound))
      .annotate(OpenApi.Description, `One carrier. ${notFound}`)
  )
  .add(
    HttpApiEndpoint.put("updateCarrier", "/carriers/:id")
      .setPath(IdPath)
      .setPayload(CarrierInput)
      .annotate(ReadOnlyFields, Carrier)
      .addError(onTheWire(CarrierNotFound))
      .annotate(
        OpenApi.Description,
        `Replaces every writable field, as on create: an optional field left out becomes null. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteCarrier", "/carriers/:id")
      .setPath(IdPath)
      .addError(onTheWire(CarrierNotFound))
      .addError(onTheWire(CarrierInUse))
      .annotate(
        OpenApi.Description,
        `204. Still referred to by an order: 409 \`Carrier <id> is used by orders\`. ${notFound}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Carriers")
  .annotate(
    OpenApi.Description,
    "A carrier belongs to the site, not to a client: every scope of the site (a client's included) sees and " +
      "maintains the same carriers."
  )
{}
