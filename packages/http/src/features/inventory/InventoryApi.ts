/**
 * Inventory (§4.5): the stock overview, the transaction ledger and lost-and-found items, all read
 * only, plus stock adjustments (extension).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AdjustmentRequest,
  ContentFull,
  ContentNotFound,
  ListWindow,
  LocationStatusRefuses,
  LostAndFoundItemNotFound,
  RecordIdFromPath,
  Stock,
  StockShort,
  TransactionNotFound
} from "@wms/core"
import { Schema } from "effect"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"

const Text = Schema.String
const NullableText = Schema.NullOr(Schema.String)

export const OverviewRecord = Schema.Struct({
  content_id: Schema.Number,
  sku_id: Text,
  description: NullableText,
  loc_id: Text,
  qty: Schema.Number,
  qty_allocated: Schema.Number,
  qty_tasked_from: Schema.Number,
  tag_id: Text,
  expiry_date: NullableText,
  client_id: NullableText,
  created_datetime: Text,
  held: Schema.Boolean,
  holds: Schema.Array(Schema.Number)
})

/** The query of `GET /inventory/overview`: `held=true|false` keeps the held or the free contents. */
export const OverviewQuery = Schema.Struct({
  held: Schema.optional(Schema.Literal("true", "false")),
  ...ListWindow.fields
})

export const TransactionRecord = Schema.Struct({
  id: Schema.Number,
  dstamp: Text,
  transaction_type: Schema.Literal(...Stock.TransactionTypes),
  content_id: Schema.Number,
  from_loc_id: Text,
  to_loc_id: Text,
  final_loc_id: Text,
  sku_id: Text,
  qty: Schema.Number,
  tag_id: Text,
  order_id: NullableText,
  line_id: Schema.NullOr(Schema.Number),
  notes: NullableText,
  client_id: NullableText,
  from_content_id: Schema.NullOr(Schema.Number),
  reason_code: NullableText
})

export const LostAndFoundRecord = Schema.Struct({
  id: Schema.Number,
  content_id: Schema.Number,
  sku_id: Text,
  description: NullableText,
  loc_id: Text,
  tag_id: Text,
  qty: Schema.Number,
  client_id: NullableText,
  dstamp: Text,
  created_by: Text,
  notes: NullableText
})

const id = HttpApiSchema.param("id", RecordIdFromPath)

export class InventoryApi extends HttpApiGroup.make("inventory")
  .add(
    HttpApiEndpoint.get("overview", "/inventory/overview")
      .annotate(OpenApi.Summary, "List stock contents")
      .setUrlParams(OverviewQuery)
      .addSuccess(Schema.Array(OverviewRecord))
      .annotate(
        OpenApi.Description,
        "The stock contents of the scope that hold stock. available = qty − qty_allocated − qty_tasked_from, and " +
          "0 while `held`: `holds` lists the ids of the Active holds covering the content (spec §1 H6). " +
          "`held=true` keeps the held contents, `held=false` the others."
      )
  )
  .add(
    HttpApiEndpoint.get("content")`/inventory/overview/${id}`
      .annotate(OpenApi.Summary, "Get stock content")
      .addSuccess(OverviewRecord)
      .addError(onTheWire(ContentNotFound))
      .annotate(
        OpenApi.Description,
        "One content by content_id; 404 `Inventory content with contentId <id> not found`."
      )
  )
  .add(
    HttpApiEndpoint.get("transactions", "/inventory/transactions")
      .annotate(OpenApi.Summary, "List inventory transactions")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(TransactionRecord))
      .annotate(
        OpenApi.Description,
        "The ledger, oldest first. Types: Receipt, Allocate, Deallocate, Pick, Shipment, Adjustment, Lost, and " +
          "those of movement tasks: Task (a task reserved qty on its source content, qty_tasked_from + qty), " +
          "Untask (a cancelled task, or the rest of a partly confirmed one, released: qty_tasked_from − qty), and " +
          "Putaway, Move and Replenish (a confirmed task carried qty from `from_content_id` to `content_id`; notes " +
          "`Movement task <id>`). Every change of stock, allocation or reservation writes one; transactions are " +
          "never changed or deleted. An Adjustment's qty is signed; every other qty is positive, its type saying " +
          "the direction. `from_content_id` is null but on movements; `reason_code` is null on every type so far."
      )
  )
  .add(
    HttpApiEndpoint.get("transaction")`/inventory/transactions/${id}`
      .annotate(OpenApi.Summary, "Get inventory transaction")
      .addSuccess(TransactionRecord)
      .addError(onTheWire(TransactionNotFound))
      .annotate(OpenApi.Description, "404 `Inventory transaction with transactionId <id> not found`.")
  )
  .add(
    HttpApiEndpoint.get("lostAndFound", "/inventory/lostandfound")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(LostAndFoundRecord))
      .annotate(
        OpenApi.Description,
        "Stock taken off a content that nobody can account for, e.g. the rest of a short pick."
      )
  )
  .add(
    HttpApiEndpoint.get("lostAndFoundItem")`/inventory/lostandfound/${id}`
      .addSuccess(LostAndFoundRecord)
      .addError(onTheWire(LostAndFoundItemNotFound))
      .annotate(OpenApi.Description, "404 `Lost and found item with id <id> not found`.")
  )
  .add(
    HttpApiEndpoint.post("adjust", "/inventory/adjustments")
      .annotate(OpenApi.Summary, "Adjust stock")
      .setPayload(AdjustmentRequest)
      .addError(onTheWire(ContentNotFound))
      .addError(onTheWire(ContentFull))
      .addError(onTheWire(StockShort))
      .addError(onTheWire(LocationStatusRefuses))
      .annotate(
        OpenApi.Description,
        "Extension. Corrects stock without a pre-advice: `{content_id, qty}` or `{sku_id, loc_id, tag_id?, expiry_date?, qty}`, " +
          "`qty` a signed non-zero integer, optional `notes`, optional `reason_code` (one of `Damaged`, `Mispick`, " +
          "`Miscount`, `Found`, `Theft`, `Expired`, `Other`; another: 400 `Invalid field reason_code: must be one " +
          "of …`; kept on the transaction). By key, the adjustment goes to the content of " +
          "that SKU, location, tag and expiry (an expiry SKU without expiry_date: today + expiry_days); without " +
          "tag_id to the oldest content of that SKU, location and expiry whatever its tag, so repeated untagged " +
          "adjustments add up in one content. A positive qty at a key with no content creates one (a generated " +
          "tag_id when none is given); a negative one needs an existing content (400). Writes an Adjustment " +
          "transaction, and when it fills an empty content that Active holds cover, a `Hold` row per hold. A content can never go below qty_allocated + qty_tasked_from, nor above 2147483647: 409 " +
          "naming the content. At a managed location, a positive qty needs one that takes stock in (not `Blocked " +
          "In`, `Blocked` or `Counting`) and a negative one a location that lets stock out (not `Blocked Out`, " +
          "`Blocked` or `Counting`): else 409 `Location <loc_id> is <status>`; capacity is never checked (an " +
          "adjustment is a fact). 204."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Inventory")
  .annotate(OpenApi.Description, "Stock contents, the transaction ledger, lost and found, and stock adjustments.")
{}
