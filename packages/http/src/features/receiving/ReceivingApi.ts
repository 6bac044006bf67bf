/**
 * Receiving (extension): stock arriving against a pre-advice.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  LocationStatusRefuses,
  PreAdviceIdFromPath,
  PreAdviceNotFound,
  PreAdviceNothingToReceive,
  PutawayReport,
  ReceiptRequest
} from "@wms/core"
import { Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"

export class ReceivingApi extends HttpApiGroup.make("receiving")
  .add(
    HttpApiEndpoint.post("receive")`/preadvices/${HttpApiSchema.param("id", PreAdviceIdFromPath)}/receive`
      .annotate(OpenApi.Summary, "Receive pre-advice")
      // An empty body receives everything, like `{}`.
      .setPayload(Schema.NullOr(ReceiptRequest))
      // With putaway, 200 with what it made; without, 204 as before putaway existed.
      .addSuccess(PutawayReport)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceNothingToReceive))
      .addError(onTheWire(LocationStatusRefuses))
      .annotate(
        OpenApi.Description,
        "Extension. Body (optional) `{lines?: [{line, qty, loc_id?, tag_id?, expiry_date?}], putaway?}`; without `lines` every line is received " +
          "in full. Each received line creates a stock content (a generated tag_id when none is given; loc_id defaults to " +
          "the site's receiving location, `RECEIVING`; an expiry SKU without expiry_date gets the receipt date + " +
          "expiry_days), raises qty_received, writes a Receipt transaction (line_id = the pre-advice line, notes = " +
          "`PreAdvice <id>`) and moves the pre-advice to In Receipt (2) or Received (3). Receiving more than expected or " +
          "an unknown line: 400 naming it; nothing left to receive: 409; a missing pre-advice: 404. A managed " +
          "location that takes no stock in (`Blocked In`, `Blocked`, `Counting`): 409 `Location <loc_id> is " +
          "<status>`. 204, unless `putaway` (default: the site setting `putaway_on_receipt`, off unless set) is true: in the " +
          "same transaction every received content at a receiving location (a managed `Receiving` location, or " +
          "the site's receiving location, `RECEIVING`, unmanaged) gets putaway tasks as `POST /putaway-tasks` makes them, and the answer is " +
          "200 `{tasks: [task ids], unplaced: [{content_id, qty}]}`, `unplaced` the stock that got no task (no " +
          "location had room, or its receiving location lets no stock out): it stays untasked where it was " +
          "received, and the receipt still succeeds."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Receiving")
  .annotate(OpenApi.Description, "Receiving the goods of a pre-advice into stock.")
{}
