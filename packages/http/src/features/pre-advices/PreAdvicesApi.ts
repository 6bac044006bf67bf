/**
 * Pre-advices and their lines (§4.3 of the API document).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  NewPreAdvice,
  PreAdvice,
  PreAdviceChanges,
  PreAdviceExists,
  PreAdviceIdFromPath,
  PreAdviceLine,
  PreAdviceLineChanges,
  PreAdviceLineExists,
  PreAdviceLineNotFound,
  PreAdviceLineNumbersExhausted,
  PreAdviceLinesPayload,
  PreAdviceListItem,
  PreAdviceNotFound,
  PreAdviceNotOpen,
  RecordIdFromPath,
  TransferPreAdviceNotDeletable,
  WindowBound
} from "@wms/core"
import { Schema } from "effect"
import { given } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const id = HttpApiSchema.param("id", PreAdviceIdFromPath)
const lineId = HttpApiSchema.param("line_id", RecordIdFromPath)

/** `limit` and `offset` of a list (extension): without them the whole list. */
export const PreAdvicePaging = Schema.Struct({
  limit: Schema.optional(WindowBound),
  offset: Schema.optional(WindowBound)
})

// A pre-advice as either GET shows it, and one line or an array of lines as they are read.
const preAdviceRecord = Schema.Union(PreAdvice, PreAdviceListItem)
const lineOrLines = Schema.Union(PreAdviceLine, Schema.Array(PreAdviceLine))

const openOnly = "Only while the pre-advice is Open (status 1); otherwise 409."

/** The endpoints of §4.3, with `limit` and `offset` on the lists. */
export class PreAdvicesApi extends HttpApiGroup.make("preAdvices")
  .add(
    HttpApiEndpoint.get("listPreAdvices", "/preadvices")
      .setUrlParams(PreAdvicePaging)
      .addSuccess(Schema.Array(PreAdviceListItem))
      .annotate(
        OpenApi.Description,
        "The pre-advices of the scope in the order they were created, without lines. `creation_datetime` is " +
          "`DD-MM-YYYY HH:mm:ss` in the service's time zone. Optional `limit` and `offset` (extension)."
      )
  )
  .add(
    HttpApiEndpoint.post("createPreAdvice", "/preadvices")
      .setPayload(NewPreAdvice)
      .annotate(ReadOnlyFields, preAdviceRecord)
      .annotateContext(given("/preadvices", "pre_advice_id"))
      .addError(onTheWire(PreAdviceExists))
      .addError(onTheWire(PreAdviceLineExists))
      .addError(onTheWire(PreAdviceLineNumbersExhausted))
      .annotate(
        OpenApi.Description,
        "Creates an Open pre-advice, with its lines, in one transaction: a bad line writes nothing. " +
          "`pre_advice_id` is unique per site (409 `PreAdvice with PreAdviceID <id> already exists`), not blank, " +
          "at most 100 characters. `supplier` must be a supplier of the scope, `lines.<n>.sku_id` a SKU of the " +
          "scope (400 naming the field). The owner is the client of the `site` header, or `client_id` (a client " +
          "of the site) for a site header; `client_id` is null on a site that is not a fulfillment site. A line's " +
          "`client_id` overrides the header's for that line; a line without one shows the header's and follows " +
          "it when it changes. Lines without `line` are numbered max + 1 in the order given, after every number " +
          "in use or given explicitly in the same request; a duplicate number: 409 " +
          "`Line <n> of pre-advice <id> already exists`. `qty` is an integer from 1 to 2147483647."
      )
  )
  .add(
    HttpApiEndpoint.get("getPreAdvice")`/preadvices/${id}`
      .addSuccess(PreAdvice)
      .addError(onTheWire(PreAdviceNotFound))
      .annotate(
        OpenApi.Description,
        "The pre-advice with its lines. 404 `PreAdvice with PreAdviceID <id> not found` when it is not in the scope."
      )
  )
  .add(
    HttpApiEndpoint.put("updatePreAdvice")`/preadvices/${id}`
      .setPayload(PreAdviceChanges)
      .annotate(ReadOnlyFields, preAdviceRecord)
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceNotOpen))
      .annotate(
        OpenApi.Description,
        "Changes only the fields present: `supplier: null` removes the supplier; `client_id: null` gives the " +
          `pre-advice the owner a create without client_id would get. ${openOnly}`
      )
  )
  .add(
    HttpApiEndpoint.del("deletePreAdvice")`/preadvices/${id}`
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceNotOpen))
      .addError(onTheWire(TransferPreAdviceNotDeletable))
      .annotate(
        OpenApi.Description,
        `Removes the pre-advice and all its lines. ${openOnly} A transfer's pre-advice is never deleted: 409 ` +
          "`PreAdvice with PreAdviceID <id> came from a transfer and cannot be deleted; its close writes off what was not " +
          "received` (`POST /preadvices/:id/close`)."
      )
  )
  .add(
    HttpApiEndpoint.get("listPreAdviceLines")`/preadvices/${id}/lines`
      .setUrlParams(PreAdvicePaging)
      .addSuccess(Schema.Array(PreAdviceLine))
      .addError(onTheWire(PreAdviceNotFound))
      .annotate(
        OpenApi.Description,
        "The line records of the pre-advice by line number. A line's `client_id` is its own, or the header's " +
          "when it has none. Optional `limit` and `offset` (extension)."
      )
  )
  .add(
    HttpApiEndpoint.post("addPreAdviceLines")`/preadvices/${id}/lines`
      .setPayload(PreAdviceLinesPayload)
      .annotate(ReadOnlyFields, lineOrLines)
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceNotOpen))
      .addError(onTheWire(PreAdviceLineExists))
      .addError(onTheWire(PreAdviceLineNumbersExhausted))
      .annotate(
        OpenApi.Description,
        "Adds one line, or an array of lines in one transaction (fields of an array are named `<index>.<field>`). " +
          `Numbering and validation as in POST /preadvices. ${openOnly}`
      )
  )
  .add(
    HttpApiEndpoint.get("getPreAdviceLine")`/preadvices/${id}/lines/${lineId}`
      .addSuccess(PreAdviceLine)
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceLineNotFound))
      .annotate(OpenApi.Description, "One line record. 404 `Line <n> of pre-advice <id> not found`.")
  )
  .add(
    HttpApiEndpoint.put("updatePreAdviceLine")`/preadvices/${id}/lines/${lineId}`
      .setPayload(PreAdviceLineChanges)
      .annotate(ReadOnlyFields, PreAdviceLine)
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceLineNotFound))
      .addError(onTheWire(PreAdviceNotOpen))
      .annotate(
        OpenApi.Description,
        "Changes only the fields present; `pallet_id: null` removes the pallet, `client_id: null` makes the " +
          `line follow the header's client again. \`qty_received\` cannot be set. ${openOnly}`
      )
  )
  .add(
    HttpApiEndpoint.del("deletePreAdviceLine")`/preadvices/${id}/lines/${lineId}`
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceLineNotFound))
      .addError(onTheWire(PreAdviceNotOpen))
      .annotate(OpenApi.Description, `Removes the line. ${openOnly}`)
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Pre-advices")
  .annotate(
    OpenApi.Description,
    "Inbound pre-advices (advance shipping notices). A new pre-advice is Open (status 1); receiving moves it on. " +
      "Another site's or client's pre-advice is a 404 on every operation."
  )
{}
