/**
 * Customer returns (spec §2 of HOLDS-RETURNS-TRANSFERS-PACKING): goods that come back against a
 * shipped order, never more than it shipped, each received with its disposition.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  LocationStatusRefuses,
  NewReturn,
  OrderLineNotFound,
  OrderNotFound,
  OrderNotShipped,
  PutawayReport,
  Return,
  ReturnExceedsShipped,
  ReturnExists,
  ReturnHasReceipts,
  ReturnIdFromPath,
  ReturnNotFound,
  ReturnNothingReceived,
  ReturnOfTransfer,
  ReturnQuery,
  ReturnReceipt,
  ReturnStatusRefuses
} from "@wms/core"
import { Schema } from "effect"
import { returned } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const returnId = HttpApiSchema.param("id", ReturnIdFromPath)

const notFound = "A return missing in the scope: 404 `Return <id> not found`."

export class ReturnsApi extends HttpApiGroup.make("returns")
  .add(
    HttpApiEndpoint.get("listReturns", "/returns")
      .setUrlParams(ReturnQuery)
      .addSuccess(Schema.Array(Return))
      .annotate(
        OpenApi.Description,
        "The returns of the scope, oldest first, every status (Cancelled ones too); optional filters `order_id`, " +
          "`status_id` (1 Open, 2 In Receipt, 3 Received, 20 Complete, 21 Cancelled) and `customer_id` (the " +
          "order's customer when the return was authorized), and `limit`/`offset`."
      )
  )
  .add(
    HttpApiEndpoint.post("createReturn", "/returns")
      .setPayload(NewReturn)
      .addSuccess(Return, { status: 201 })
      .annotate(ReadOnlyFields, Return)
      .annotateContext(returned("/returns", "return_id"))
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(OrderLineNotFound))
      .addError(onTheWire(OrderNotShipped))
      .addError(onTheWire(ReturnExceedsShipped))
      .addError(onTheWire(ReturnOfTransfer))
      .addError(onTheWire(ReturnExists))
      .annotate(
        OpenApi.Description,
        "Body `{return_id?, order_id, reason_code, notes?, lines: [{order_line, qty}]}`: authorizes a return of a " +
          "Shipped (19) order, Open (1), owned by the order's owner, with the order's `customer_id` (a transfer " +
          "order: 409 `Order <id> is a transfer to site <site>: …`). `return_id` " +
          "(1 to 100 characters, unique on the site: 409 `Return <id> already exists`) is generated as " +
          "`R00000001`, `R00000002`, … from a counter of the site when absent or null, skipping an id in use. " +
          "`reason_code` is free text (1 to 64 characters), e.g. `Damaged`, `WrongSize`, `Refused`. `lines` needs " +
          "at least one entry; each becomes a return line numbered from 1 in the body's order, with the order " +
          "line's `sku_id`, and `qty` ≥ 1 (0: 400). A missing order: 404 `Order with OrderID <id> not found`; an " +
          "unknown order line: 404 `Line <n> of order <order_id> not found`; an order not shipped: 409 `Order " +
          "<order_id> is not shipped`. Per order line, what all its returns that are not Cancelled authorize " +
          "never exceeds its `qty_shipped` (R2), checked under the lock of the order line, so two processes " +
          "cannot both pass: 409 `Return of <q> exceeds the <n> returnable of order <order_id> line <line>` " +
          "(`<q>` the body's sum for that order line). A Complete return counts what it received. 201 with the return."
      )
  )
  .add(
    HttpApiEndpoint.get("getReturn")`/returns/${returnId}`
      .addSuccess(Return)
      .addError(onTheWire(ReturnNotFound))
      .annotate(
        OpenApi.Description,
        "One return with its lines: `qty_received` is `qty_restocked` + `qty_quarantined` + `qty_scrapped`. " +
          notFound
      )
  )
  .add(
    HttpApiEndpoint.post("receiveReturn")`/returns/${returnId}/receive`
      .setPayload(ReturnReceipt)
      // With putaway, 200 with what it made; without, 204, as a pre-advice's receipt.
      .addSuccess(PutawayReport)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(onTheWire(ReturnNotFound))
      .addError(onTheWire(ReturnStatusRefuses))
      .addError(onTheWire(LocationStatusRefuses))
      .annotate(
        OpenApi.Description,
        "Body `{lines: [{line, qty, disposition: \"Restock\" | \"Quarantine\" | \"Scrap\", loc_id?, tag_id?, " +
          "expiry_date?}]}` (at least one line): receives goods of an Open or In Receipt return (else 409 " +
          "`Return <id> is <status>`). `Restock` makes a new content at `loc_id` (default `RETURNS`, an " +
          "unmanaged location like `RECEIVING`; a managed one must take stock in: 409 `Location <loc_id> is " +
          "<status>`) owned by the order's owner, with the given `tag_id` or a generated one, and a `Return` " +
          "ledger row (+qty; `order_id` and `line_id` the order and its line, notes `Return <return_id> line " +
          "<n>`). `Quarantine` does the same, and in the same transaction the new content is covered by a " +
          "content hold of `reason_code` `Return` (notes `Return <return_id> line <n>`, a `Hold` ledger row, " +
          "`hold_created`), so it is unavailable until that hold is released. Returned goods that an Active " +
          "SKU, lot or location hold covers are born held (a `Hold` row per such hold). `Scrap` is counted on " +
          "the line only: no stock, no ledger row. The expiry, when not given, is " +
          "that of the stock the order line shipped when all of it had one expiry, else the SKU's default. What " +
          "a line receives over all receipts never exceeds what it authorizes: 400 `Over-receipt of return <id> " +
          "line <n>`; an unknown line: 400 naming it; an unknown disposition: 400. The return becomes In Receipt " +
          "(2), or Received (3) once every line is received in full, and a `return_received` event carries it. " +
          "204; with the site setting `putaway_on_receipt` on, the answer is 200 `{tasks, unplaced}` as for a " +
          "pre-advice: the restocked stock at `RETURNS` (or at a managed `Receiving` location) that no hold " +
          "covers gets its putaway tasks in the same transaction; quarantined and held stock gets none. " +
          notFound
      )
  )
  .add(
    HttpApiEndpoint.post("closeReturn")`/returns/${returnId}/close`
      .addError(onTheWire(ReturnNotFound))
      .addError(onTheWire(ReturnNothingReceived))
      .addError(onTheWire(ReturnStatusRefuses))
      .annotate(
        OpenApi.Description,
        "Ends an In Receipt return: Complete (20), and the rest is no longer authorized (each line's " +
          "`qty_authorized` becomes its `qty_received`, so the order line may be returned again up to what " +
          "shipped). An Open return (nothing received): 409 `Return <id> has nothing received: delete it " +
          `instead\`; a Received, Complete or Cancelled one: 409 \`Return <id> is <status>\`. 204. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteReturn")`/returns/${returnId}`
      .addError(onTheWire(ReturnNotFound))
      .addError(onTheWire(ReturnHasReceipts))
      .addError(onTheWire(ReturnStatusRefuses))
      .annotate(
        OpenApi.Description,
        "Cancels an Open return (nothing received): Cancelled (21); it stays readable and authorizes nothing. " +
          "After a receipt: 409 `Return <id> has receipts: close it instead`; a Complete or Cancelled one: 409 " +
          `\`Return <id> is <status>\`. 204. ${notFound}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Returns")
  .annotate(
    OpenApi.Description,
    "Customer returns (RMA) against shipped orders: authorized never above what shipped, received with a " +
      "disposition. Creating a return locks its order, then the order lines it returns; a receipt, close or " +
      "cancel locks the return."
  )
{}
