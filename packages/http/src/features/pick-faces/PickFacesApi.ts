/**
 * Pick faces and their replenishment (extension, warehouse cycle §3.4): the min/max of a SKU at a
 * `PickFace` location, and the Replenish movement tasks that keep it between them.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  LocationNotFound,
  NotAPickFace,
  PickFaceNotFound,
  PickFaceQuery,
  PickFaceRecord,
  PickFaceSetting,
  ReplenishmentReport,
  ReplenishmentRunRequest,
  SkuNotFound,
  TextIdFromPath
} from "@wms/core"
import { Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const skuId = HttpApiSchema.param("sku_id", TextIdFromPath)
const locId = HttpApiSchema.param("loc_id", TextIdFromPath)

const notFound = "No setting for the SKU at the location, or a SKU the scope cannot see: 404 " +
  "`Pick face <sku_id> at <loc_id> not found`."

/** The rules of replenishment, said once for the endpoints that trigger it. */
export const replenishmentRules = "A face's `level` is its `qty` of the SKU plus the Open movement tasks bringing " +
  "the SKU there (`inbound_qty`) minus what is allocated at it (`qty_allocated`). It needs stock when `level` < " +
  "`min_qty`; then Replenish movement tasks bring `max_qty − level`, rounded down to `replenish_multiple`, capped by " +
  "the face's capacity (stock on hand and inbound, as for any task) and rounded down again: never above `max_qty`, " +
  "never over capacity. Sources: contents of the SKU and its client at managed `Storage` locations that let stock " +
  "out, with stock available and not expired, in the FEFO order of allocation (earliest expiry, no expiry last, " +
  "then oldest, then lowest content_id); each is taken whole while the quantity still wanted covers it (so a " +
  "multiple of the pallet size moves whole pallets), only the last is split. A face that is not `PickFace` any more, " +
  "or refuses stock in (`Blocked In`, `Blocked`, `Counting`), is not replenished. While a Replenish task of the SKU " +
  "to the face is Open, no other is made (also across processes: the face's settings are locked while deciding). " +
  "Triggers, in the same transaction as their cause: a wave start that allocates from the face, a pick confirmed " +
  "at the face, and `POST /replenishments/run`. The tasks are movement tasks of type `Replenish` " +
  "(`GET /movement-tasks?task_type=Replenish`), confirmed and cancelled as any."

export class PickFacesApi extends HttpApiGroup.make("pickFaces")
  .add(
    HttpApiEndpoint.get("listPickFaces", "/pick-faces")
      .setUrlParams(PickFaceQuery)
      .addSuccess(Schema.Array(PickFaceRecord))
      .annotate(
        OpenApi.Description,
        "The pick-face settings of the SKUs the scope can see, by `sku_id` then `loc_id`, each with the face's " +
          "stock of the SKU: `qty`, `qty_allocated`, `inbound_qty` (Open movement tasks bringing it) and `level` " +
          "(`qty + inbound_qty − qty_allocated`). Optional filters `sku_id` and `loc_id`, and `limit`/`offset`."
      )
  )
  .add(
    HttpApiEndpoint.get("getPickFace")`/pick-faces/${skuId}/${locId}`
      .addSuccess(PickFaceRecord)
      .addError(onTheWire(PickFaceNotFound))
      .annotate(OpenApi.Description, `One setting, as the list shows it. ${notFound}`)
  )
  .add(
    HttpApiEndpoint.put("putPickFace")`/pick-faces/${skuId}/${locId}`
      .annotate(OpenApi.Summary, "Set pick face")
      .setPayload(PickFaceSetting)
      .annotate(ReadOnlyFields, PickFaceRecord)
      .addError(onTheWire(SkuNotFound))
      .addError(onTheWire(LocationNotFound))
      .addError(onTheWire(NotAPickFace))
      .annotate(
        OpenApi.Description,
        "An upsert, 204: `{min_qty, max_qty, replenish_multiple?}` for the SKU at the location. `0 ≤ min_qty < " +
          "max_qty` (else 400 `Invalid field max_qty: must be greater than min_qty, <min>`); `replenish_multiple` " +
          "(a case or pallet size, null: none) at most `max_qty` (else 400). A SKU the scope cannot see: 404 " +
          "`SKU with id <id> not found`; a location without a record: 404 `Location with id <id> not found`; a " +
          "location whose `loc_type` is not `PickFace`: 409 `Location <loc_id> is not a pick face`. A SKU may have " +
          "several faces, and a face several SKUs. Setting it triggers nothing: the next trigger uses it."
      )
  )
  .add(
    HttpApiEndpoint.del("deletePickFace")`/pick-faces/${skuId}/${locId}`
      .addError(onTheWire(PickFaceNotFound))
      .annotate(
        OpenApi.Description,
        "204: the face is not replenished any more. Its Open Replenish tasks stay (stock on its way): confirm or " +
          `cancel them as any movement task. Deleting the location deletes its settings. ${notFound}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Pick faces")
  .annotate(
    OpenApi.Description,
    `Extension. A setting belongs to its SKU: a scope sees and changes those of the SKUs it can see. ${replenishmentRules}`
  )
{}

export class ReplenishmentApi extends HttpApiGroup.make("replenishment")
  .add(
    HttpApiEndpoint.post("runReplenishment", "/replenishments/run")
      .annotate(OpenApi.Summary, "Run replenishment")
      .setPayload(ReplenishmentRunRequest)
      .addSuccess(ReplenishmentReport)
      .annotate(
        OpenApi.Description,
        "Checks every pick face of the SKUs the scope can see (only those of `sku_id`, or at locations of `zone`, " +
          "when given) and opens the Replenish tasks they need, in one transaction: 200 `{tasks: [ids]}` (`[]` when " +
          "none needs stock, or each that does has an Open Replenish task already: running twice makes none the " +
          `second time). ${replenishmentRules}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Replenishment")
  .annotate(OpenApi.Description, "Extension. Replenishment of pick faces on demand.")
{}
