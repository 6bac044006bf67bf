/**
 * Outbound orders and order lines (§4.2 of the API document).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ListWindow,
  NewOrder,
  NewOrderLine,
  Order,
  OrderExists,
  OrderIdFromPath,
  OrderLine,
  OrderLineExists,
  OrderLineNotFound,
  OrderLineNumbersExhausted,
  OrderLineUpdate,
  OrderListItem,
  OrderNotDeletable,
  OrderNotFound,
  OrderNotReleased,
  OrderPickingStarted,
  OrderUpdate,
  RecordIdFromPath,
  SiteNotFound,
  TextIdFromPath,
  TransferInClientScope,
  TransferSkuMissing
} from "@wms/core"
import { JSONSchema, ParseResult, Schema } from "effect"
import { given } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const orderId = HttpApiSchema.param("id", OrderIdFromPath)
const lineId = HttpApiSchema.param("line_id", RecordIdFromPath)

const NewOrderLines = Schema.Array(NewOrderLine)
// One line or an array of lines as they are read, for a client that sends back what it read.
const lineOrLines = Schema.Union(OrderLine, Schema.Array(OrderLine))
const oneOrMany = Schema.Union(NewOrderLine, NewOrderLines)
const { $schema: _, ...oneOrManyJsonSchema } = JSONSchema.make(oneOrMany, {
  target: "openApi3.1"
})

/**
 * The body of `POST /orders/:id/lines`: one line or an array of lines. The shape picks the schema
 * first, so a failure names the field of that shape (`1.qty`) rather than the other shape's mismatch.
 */
export const OrderLinesPayload = Schema.transformOrFail(
  Schema.Unknown.annotations({ jsonSchema: oneOrManyJsonSchema }),
  Schema.typeSchema(oneOrMany),
  {
    strict: true,
    decode: (input, options) =>
      Array.isArray(input)
        ? ParseResult.decodeUnknown(NewOrderLines)(input, options)
        : ParseResult.decodeUnknown(NewOrderLine)(input, options),
    encode: ParseResult.succeed
  }
)

/**
 * A response schema the server sends as the handler built it, without walking it again: `Orders`
 * builds exactly this shape, and walking 100 orders field by field costs more than writing their
 * JSON. Clients still decode and check it with `schema`, and the OpenAPI document shows `schema`.
 */
const sentAsBuilt = <A, I>(schema: Schema.Schema<A, I>) => {
  const { $schema: _, ...jsonSchema } = JSONSchema.make(schema, { target: "openApi3.1" })
  return Schema.declare([], {
    decode: () => (input) => ParseResult.decodeUnknown(schema)(input),
    encode: () => (output) => ParseResult.succeed(output as I)
  }, { jsonSchema, [SentAsBuilt]: true })
}

/** Marks a response schema whose encoding leaves the value as it is: the hot routes' front skips it. */
export const SentAsBuilt: unique symbol = Symbol.for("@wms/http/SentAsBuilt")

const linesRule = "Lines may be added, changed or deleted only while the order is Released (14); otherwise 409."

export class OrdersApi extends HttpApiGroup.make("orders")
  .add(
    HttpApiEndpoint.get("listOrders", "/orders")
      .setUrlParams(Schema.Struct({ lines: Schema.optional(TextIdFromPath), ...ListWindow.fields }))
      .addSuccess(sentAsBuilt(Schema.Array(OrderListItem)))
      .annotate(
        OpenApi.Description,
        "The orders of the scope, oldest first, each with its lines ordered by line number. `lines=false` leaves " +
          "the `lines` key out; any other value, or none, includes them."
      )
  )
  .add(
    HttpApiEndpoint.post("createOrder", "/orders")
      .setPayload(NewOrder)
      .annotate(ReadOnlyFields, Order)
      .annotateContext(given("/orders", "order_id"))
      .addError(onTheWire(OrderExists))
      .addError(onTheWire(OrderLineExists))
      .addError(onTheWire(OrderLineNumbersExhausted))
      .addError(onTheWire(SiteNotFound))
      .addError(onTheWire(TransferInClientScope))
      .addError(onTheWire(TransferSkuMissing))
      .annotate(
        OpenApi.Description,
        "Creates a Released order with its optional lines, all in one transaction: a bad line writes nothing. " +
          "`order_id` (1 to 100 characters) is unique per site: an id in use on the site, also by another client " +
          "of a fulfillment site, gets 409 `Order with OrderID <id> already exists`. The order's `client_id` is the " +
          "client of the `site` header (null for a site). `customer_id`, `carrier_id` and each line's `sku_id` " +
          "must exist in the scope (400 naming the field, e.g. `lines.0.sku_id`). Lines without `line` are " +
          "numbered after the highest number among the order's lines and those given in the body; a number given " +
          "twice gets 409 `Line <n> of order <id> already exists`. Read-only fields are ignored, and so are unknown " +
          "ones unless `Prefer: handling=strict` asks for a 400. " +
          "An empty `ship_dock` is stored as null. " +
          "A **transfer** to another site of the installation gives `to_site` (a site id) instead of `customer_id`: " +
          "its record shows `order_type: \"Transfer\"` and `to_site` (every other order `\"Customer\"` and null), " +
          "and it is waved, picked and shipped like any order; shipping it creates the destination's pre-advice " +
          "`TR-<site>-<order_id>` (see `POST /orders/:id/ship`). Only an admin creates one (403 `Admin rights " +
          "required`). `to_site` with `customer_id`, the order's own site, or a client id: 400 naming `to_site`; " +
          "an unknown site: 404 `Site with id <id> not found`; in a client's scope: 409 `A transfer moves a site's " +
          "own stock: it cannot be made in the scope of client <id>`; a SKU the destination does not have (by the " +
          "same `sku_id`): 409 `SKU <sku_id> does not exist at site <site>, the transfer's destination`, as when a " +
          "line is added or changed later and when the order ships. A transfer order is deleted like any order " +
          "until it ships."
      )
  )
  .add(
    HttpApiEndpoint.get("getOrder")`/orders/${orderId}`
      .addSuccess(sentAsBuilt(Order))
      .addError(onTheWire(OrderNotFound))
      .annotate(
        OpenApi.Description,
        "The order with its lines and its shipping units (`shipping_units`: `[{sscc, unit_type, parent_sscc, " +
          "weight, tracking_number}]` by id, `[]` when none; their lines are in `GET /orders/:id/packing-list`). " +
          "Missing in the scope: 404 `Order with OrderID <id> not found`."
      )
  )
  .add(
    HttpApiEndpoint.put("updateOrder")`/orders/${orderId}`
      .setPayload(OrderUpdate)
      .annotate(ReadOnlyFields, Order)
      .addError(onTheWire(OrderNotFound))
      .annotate(
        OpenApi.Description,
        "Changes only the fields present in the body; an explicit null clears a field. Allowed in every status. " +
          "Other fields (order_id, status, client_id, created_by, lines, order_type, to_site) are ignored. A " +
          "transfer order has no customer: a `customer_id` for one is a 400."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteOrder")`/orders/${orderId}`
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(OrderNotDeletable))
      .addError(onTheWire(OrderPickingStarted))
      .annotate(
        OpenApi.Description,
        "Removes the order and all its lines. An order that is not Released gets 409 (release its wave first)."
      )
  )
  .add(
    HttpApiEndpoint.get("listOrderLines")`/orders/${orderId}/lines`
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(OrderLine))
      .addError(onTheWire(OrderNotFound))
      .annotate(OpenApi.Description, "The order's lines, ordered by line number.")
  )
  .add(
    HttpApiEndpoint.post("addOrderLines")`/orders/${orderId}/lines`
      .setPayload(OrderLinesPayload)
      .annotate(ReadOnlyFields, lineOrLines)
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(OrderNotReleased))
      .addError(onTheWire(OrderLineExists))
      .addError(onTheWire(OrderLineNumbersExhausted))
      .addError(onTheWire(TransferSkuMissing))
      .annotate(
        OpenApi.Description,
        "Adds one line or an array of lines in one transaction. Lines without `line` are numbered after the " +
          "highest number in use or given in the body, in body order; a number in use or given twice: 409 " +
          `\`Line <n> of order <id> already exists\`. ${linesRule}`
      )
  )
  .add(
    HttpApiEndpoint.get("getOrderLine")`/orders/${orderId}/lines/${lineId}`
      .addSuccess(OrderLine)
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(OrderLineNotFound))
      .annotate(OpenApi.Description, "One line record. A missing line: 404 `Line <n> of order <id> not found`.")
  )
  .add(
    HttpApiEndpoint.put("updateOrderLine")`/orders/${orderId}/lines/${lineId}`
      .setPayload(OrderLineUpdate)
      .annotate(ReadOnlyFields, OrderLine)
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(OrderLineNotFound))
      .addError(onTheWire(OrderNotReleased))
      .addError(onTheWire(TransferSkuMissing))
      .annotate(
        OpenApi.Description,
        `Sets the line's \`sku_id\` and \`qty\` (both required); the line number never changes. ${linesRule}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteOrderLine")`/orders/${orderId}/lines/${lineId}`
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(OrderLineNotFound))
      .addError(onTheWire(OrderNotReleased))
      .annotate(OpenApi.Description, `Removes the line. ${linesRule}`)
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Orders")
  .annotate(
    OpenApi.Description,
    "Outbound orders. Another site's or client's order is a 404, for reads and writes alike. Dates are " +
      "`YYYY-MM-DD`; `creation_datetime` is `YYYY-MM-DD HH:mm:ss` in the service's time zone; absent values are null."
  )
{}
