/**
 * Holds and quarantine (spec §1 of HOLDS-RETURNS-TRANSFERS-PACKING): stock that must not ship, held
 * without moving it or changing its quantity, and released on its own.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ContentNotFound,
  Hold,
  HoldNotFound,
  HoldQuery,
  HoldWrongState,
  NewHold,
  NewRecall,
  Recall,
  RecordIdFromPath,
  ReleaseHold,
  SkuNotFound,
  Trace,
  TraceQuery
} from "@wms/core"
import { Schema } from "effect"
import { returned, returnedWithin } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const id = HttpApiSchema.param("id", RecordIdFromPath)

const notFound = "A hold missing in the scope: 404 `Hold <id> not found`; a non-integer id: 400."
const record = "A hold: its scope fields (`content_id`, `sku_id`, `tag_id`, `expiry_date`, `loc_id`; those not " +
  "given are null), `client_id` (a content hold's content's owner, or the client scope it was made in; null: every " +
  "client's stock of the site), `reason_code`, `notes`, `status`/`status_id` (24 Active, 14 Released), " +
  "`deallocate`, `created_by`, `creation_datetime`, `released_by`, `release_datetime`, `release_notes` (null until " +
  "released), and `qty_covered`, the sum of `qty` of the contents it covers now (0 once released)."

export class HoldsApi extends HttpApiGroup.make("holds")
  .add(
    HttpApiEndpoint.get("listHolds", "/holds")
      .setUrlParams(HoldQuery)
      .addSuccess(Schema.Array(Hold))
      .annotate(
        OpenApi.Description,
        "The scope's holds by id: the Active (24) ones unless `status_id` says 14 (Released). Optional filters " +
          `\`sku_id\`, \`loc_id\`, \`reason_code\` (each the hold's own field), and \`limit\`/\`offset\`. ${record}`
      )
  )
  .add(
    HttpApiEndpoint.post("createHold", "/holds")
      .setPayload(NewHold)
      .addSuccess(Hold, { status: 201 })
      .annotate(ReadOnlyFields, Hold)
      .annotateContext(returned("/holds", "id"))
      .addError(onTheWire(ContentNotFound))
      .addError(onTheWire(SkuNotFound))
      .annotate(
        OpenApi.Description,
        "Body `{content_id? | sku_id?, tag_id?, expiry_date?, loc_id?, reason_code, notes?, deallocate?}`: an " +
          "Active hold, 201 with it. Its scope is the fields given: `content_id` alone (that content, and every " +
          "content a movement from it fills); `sku_id` with optional `tag_id` and/or `expiry_date` (a lot: every " +
          "content of it on the site, now and later: a receipt of a held lot is born held and stays at its " +
          "receiving location, out of any putaway); `loc_id` alone or with `sku_id` (every content there, now and " +
          "later; it need not be a managed location). None of them: 400 `Missing field content_id, sku_id or " +
          "loc_id`; `content_id` with another: 400 `Invalid field content_id: cannot be combined with sku_id, " +
          "tag_id, expiry_date or loc_id`; `tag_id` or `expiry_date` without `sku_id`: 400 `Missing field sku_id`. " +
          "`reason_code` is a text of 1–50 characters, `notes` at most 1000 (longer: 400 naming the field). An " +
          "unknown content: 404 `Inventory content with contentId <id> not found`; an unknown SKU: 404. Held " +
          "stock is not available (H1): wave allocation, short-pick re-allocation and replenishment never take " +
          "it, and a new movement task from it, or a confirm to another destination than planned, is refused " +
          "unless it goes to a `Quarantine` location: 409 `Content <id> is held by hold <hold_id>: it may move " +
          "only to a Quarantine location` (H3). Its `qty_allocated` and `qty_tasked_from` stay: picks and tasks " +
          "made before proceed, unless `deallocate` is true (H2): then, in the same transaction, every open pick " +
          "task on the covered stock is cancelled as a short pick of the whole task would be (re-allocated or " +
          "backordered by the site settings `reallocate_short_picks` and `backorders`, a `Deallocate` transaction, " +
          "nothing to lost and found), and every open movement task from it too (`Untask`). A `Hold` transaction " +
          "(qty: the content's quantity, which it does not change; `reason_code`; notes `Hold <id>`) is written " +
          "per content with stock it covers, and per content later stock enters. Raises `hold_created`."
      )
  )
  .add(
    HttpApiEndpoint.get("getHold")`/holds/${id}`
      .addSuccess(Hold)
      .addError(onTheWire(HoldNotFound))
      .annotate(OpenApi.Description, `One hold, whatever its status. ${record} ${notFound}`)
  )
  .add(
    HttpApiEndpoint.post("releaseHold")`/holds/${id}/release`
      // An empty body releases without notes, like `{}`.
      .setPayload(Schema.NullOr(ReleaseHold))
      .addError(onTheWire(HoldNotFound))
      .addError(onTheWire(HoldWrongState))
      .annotate(
        OpenApi.Description,
        "Body (optional) `{notes?}`: the hold becomes Released (14) and its stock available again unless another " +
          "Active hold covers it (H5); a `Release` transaction per content with stock it covered. Allocations " +
          "its `deallocate` cancelled are not restored. Released already: 409 `Hold <id> is Released`. Raises " +
          `\`hold_released\`. 204. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.post("createRecall", "/recalls")
      .setPayload(NewRecall)
      .addSuccess(Recall, { status: 201 })
      .annotate(ReadOnlyFields, Recall)
      .annotateContext(returnedWithin("/holds", (recall: Recall) => recall.hold.id))
      .addError(onTheWire(SkuNotFound))
      .annotate(
        OpenApi.Description,
        "Body `{sku_id, tag_id?, expiry_date?, reason_code, notes?}`: in one transaction an Active lot hold with " +
          "`deallocate: true` (as `POST /holds` makes it: its open picks and movement tasks cancelled, " +
          "`hold_created` raised), and the lot's trace as `GET /trace` answers it after the hold. 201 with " +
          "`{hold, trace}`; `Location` is the hold's. An unknown SKU: 404."
      )
  )
  .add(
    HttpApiEndpoint.get("getTrace", "/trace")
      .setUrlParams(TraceQuery)
      .addSuccess(Trace)
      .addError(onTheWire(SkuNotFound))
      .annotate(
        OpenApi.Description,
        "Where a lot came from, where it is and where it went, from the ledger of its whole history (contents now " +
          "empty included): `sku_id` (required; unknown: 404) with optional `tag_id` and `expiry_date` (none: every " +
          "lot of the SKU). `received`: each `Receipt`, `Return` and `TransferIn` row of the lot's contents, " +
          "`{date, transaction_type, pre_advice_id, return_id, order_id, qty, content_id}`: a `Receipt` names its " +
          "pre-advice, a `Return` its return and the order it came back from, a `TransferIn` its transfer order (the " +
          "pre-advice it was received on is `TR-<sending site>-<order_id>`); the other two are null. `on_hand`: its " +
          "contents with stock, `{content_id, loc_id, qty, qty_allocated, held}`; `shipped`: each `Shipment` and " +
          "`TransferOut` row, `{date, transaction_type, order_id, customer_id, to_site, line, qty}` (`customer_id` " +
          "the customer order's customer id, null on a transfer or an order without one; `to_site` a transfer's " +
          "destination, null on a shipment). Dates are `YYYY-MM-DD` in the service's time zone; rows in ledger order."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Holds")
  .annotate(
    OpenApi.Description,
    "Holds make stock unavailable without moving it: by content, SKU, lot or location, each with a reason, several " +
      "on the same stock, each released on its own. A hold's creation takes the site's holds lock, so no wave " +
      "start reads the site's free stock while it is made. A recall holds a lot and traces it."
  )
{}
