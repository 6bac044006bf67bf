/**
 * Transfers between sites (spec §3 of HOLDS-RETURNS-TRANSFERS-PACKING): what is in transit, and
 * ending a transfer short. A transfer order is created, waved, picked and shipped through the
 * orders' and picking's endpoints, and received through the pre-advice's receipt.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  CloseTransferRequest,
  InTransitLine,
  InTransitQuery,
  PreAdviceIdFromPath,
  PreAdviceNotFound,
  PreAdviceNotOpen,
  PreAdviceNotTransfer
} from "@wms/core"
import { Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"

export class TransfersApi extends HttpApiGroup.make("transfers")
  .add(
    HttpApiEndpoint.get("listInTransit", "/transfers/in-transit")
      .setUrlParams(InTransitQuery)
      .addSuccess(Schema.Array(InTransitLine))
      .annotate(
        OpenApi.Description,
        "The transfer lines still in transit to or from the site of the scope, by pre-advice and line: the lines " +
          "of In Transit (26) and In Receipt (2) transfers with `qty_in_transit` = `qty_shipped − qty_received` " +
          "above 0, `shipped_datetime` when the transfer shipped. Stock in transit belongs to neither site: no " +
          "content and no `GET /inventory` of either shows it. A transfer belongs to its sites, not to a client: a " +
          "client's scope lists none. `limit`/`offset` window the list (`X-Total-Count` with `limit`)."
      )
  )
  .add(
    HttpApiEndpoint.post("closeTransfer")`/preadvices/${HttpApiSchema.param("id", PreAdviceIdFromPath)}/close`
      .setPayload(CloseTransferRequest)
      .addError(onTheWire(PreAdviceNotFound))
      .addError(onTheWire(PreAdviceNotTransfer))
      .addError(onTheWire(PreAdviceNotOpen))
      .annotate(
        OpenApi.Description,
        "Short-closes a transfer's pre-advice: `{reason_code}` (one of `Damaged`, `Mispick`, `Miscount`, " +
          "`Found`, `Theft`, `Expired`, `Other`; another or none: 400). Every line records what it did not " +
          "receive as `qty_lost`, which is written off: no stock appears at either site, and no transaction is " +
          "written (the stock left the source's contents when it was picked). The pre-advice becomes Complete " +
          "(20) with the `reason_code`, and receives nothing more (409 `… has nothing left to receive`). Only an " +
          "In Transit or In Receipt transfer closes: otherwise 409 `PreAdvice with PreAdviceID <id> is <status>: " +
          "only an In Transit or In Receipt transfer can be closed`; a pre-advice no transfer made: 409 " +
          "`PreAdvice with PreAdviceID <id> was not made by a transfer: only a transfer's pre-advice can be closed`; " +
          "missing in the scope: 404. A close and a receipt of the same transfer run one after the other. 204."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Transfers")
  .annotate(
    OpenApi.Description,
    "Stock sent to another site of the installation: a transfer order (`POST /orders` with `to_site`) ships " +
      "into the destination's pre-advice `TR-<site>-<order_id>`, In Transit until received."
  )
{}
