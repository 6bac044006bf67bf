/**
 * SKUs, SKU groups and pick methods (§2.4, §4.4 of the API document; DECISIONS §5).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  ListWindow,
  NewSku,
  NewSkuGroup,
  PickMethod,
  Sku,
  SkuExists,
  SkuGroup,
  SkuGroupInUse,
  SkuGroupNotFound,
  SkuGroupUpdate,
  SkuListItem,
  SkuNotFound,
  SkuUpdate,
  TextIdFromPath
} from "@wms/core"
import { Schema } from "effect"
import { generated, given } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const IdPath = Schema.Struct({ id: TextIdFromPath })

// A SKU as either GET shows it: a client may send back a list item or the record.
const skuRecord = Schema.Union(Sku, SkuListItem)

const skuFields = "`description` is required and not blank. Optional: `ean`, `sku_group`, " +
  "`preferred_putaway_location` (text; absent, null or empty is null), `expiry_days`, `qty_on_full_pallet`, " +
  "`default_receipt_quantity` (whole numbers from 0 to 2147483647 or null), `each_width`, `each_height`, " +
  "`each_depth`, `each_weight`, `each_volume`, `each_value` (numbers ≥ 0 or null), `expiry_sku` (default false), " +
  "`obsolete` (default false), `new` (default true), `pick_method` (1 per qty, 2 per each; default 1). An expiry " +
  "SKU needs `expiry_days`: 400 `Invalid field expiry_days: is required when expiry_sku is true`. `sku_group` must " +
  "be a group the scope sees that belongs to the site or to the SKU's client: otherwise 400 " +
  "`Invalid field sku_group: SKU group <id> does not exist`. `client_id` (fulfillment) names the owning client " +
  "when the `site` header is the site; it is fixed once the SKU exists."

export class SkusApi extends HttpApiGroup.make("skus")
  .add(
    HttpApiEndpoint.get("listSkus", "/skus")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(SkuListItem))
      .annotate(
        OpenApi.Description,
        "The SKUs of the scope, by `sku_id`; optional `limit` and `offset`. `sku_group_description` is the " +
          "description of the SKU's group, or null when it has none."
      )
  )
  .add(
    HttpApiEndpoint.post("createSku", "/skus")
      .setPayload(NewSku)
      .annotate(ReadOnlyFields, skuRecord)
      .annotateContext(given("/skus", "sku_id"))
      .addError(onTheWire(SkuExists))
      .annotate(
        OpenApi.Description,
        "Extension. Creates a SKU. `sku_id` (1 to 64 characters) is unique per site: an id in use on the site, " +
          `also by another client, gets 409 \`SKU with id <id> already exists\`. ${skuFields}`
      )
  )
  .add(
    HttpApiEndpoint.get("getSku", "/skus/:id")
      .setPath(IdPath)
      .addSuccess(Sku)
      .addError(onTheWire(SkuNotFound))
      .annotate(
        OpenApi.Description,
        "One SKU; `sku_group` is its group's id or null. Missing in the scope: 404 `SKU with id <id> not found`."
      )
  )
  .add(
    HttpApiEndpoint.put("updateSku", "/skus/:id")
      .setPath(IdPath)
      .setPayload(SkuUpdate)
      .annotate(ReadOnlyFields, skuRecord)
      .addError(onTheWire(SkuExists))
      .annotate(
        OpenApi.Description,
        "An idempotent upsert for master-data sync: replaces every writable field of the SKU (an optional field " +
          "left out gets its default or null), or creates the SKU when the site has none of that id. `sku_id` in " +
          "the body may be left out; when sent it must equal the path's id (400). A SKU of that id that the scope " +
          `cannot see (another client's): 409 \`SKU with id <id> already exists\`. ${skuFields}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "SKUs")
  .annotate(OpenApi.Description, "SKUs are never deleted through the API.")
{}

const groupNotFound = "Missing in the scope: 404 `SKU group with id <id> not found`."

export class SkuGroupsApi extends HttpApiGroup.make("skuGroups")
  .add(
    HttpApiEndpoint.get("listSkuGroups", "/skugroups")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(SkuGroup))
      .annotate(
        OpenApi.Description,
        "The SKU groups of the scope, in the order of their ids; optional `limit` and `offset`."
      )
  )
  .add(
    HttpApiEndpoint.post("createSkuGroup", "/skugroups")
      .setPayload(NewSkuGroup)
      .annotate(ReadOnlyFields, SkuGroup)
      .annotateContext(generated("/skugroups"))
      .annotate(
        OpenApi.Description,
        "Creates a group; its `sku_group_id` is generated: a numeric string (\"1\", \"2\", …) counted per site. " +
          "`description` is required and not blank. `client_id` (fulfillment) names the owning client when the " +
          "`site` header is the site; a client's header owns what it creates."
      )
  )
  .add(
    HttpApiEndpoint.get("getSkuGroup", "/skugroups/:id")
      .setPath(IdPath)
      .addSuccess(SkuGroup)
      .addError(onTheWire(SkuGroupNotFound))
      .annotate(OpenApi.Description, `One group: \`{sku_group_id, description, client_id}\`. ${groupNotFound}`)
  )
  .add(
    HttpApiEndpoint.put("updateSkuGroup", "/skugroups/:id")
      .setPath(IdPath)
      .setPayload(SkuGroupUpdate)
      .annotate(ReadOnlyFields, SkuGroup)
      .addError(onTheWire(SkuGroupNotFound))
      .annotate(
        OpenApi.Description,
        "Sets the description. `sku_group_id`, when sent, must equal the path's id (400). The owner is fixed: a " +
          `\`client_id\` other than the group's gets 400; leave it out or repeat it. ${groupNotFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteSkuGroup", "/skugroups/:id")
      .setPath(IdPath)
      .addError(onTheWire(SkuGroupNotFound))
      .addError(onTheWire(SkuGroupInUse))
      .annotate(
        OpenApi.Description,
        `204. A group that SKUs are in: 409 \`SKU group <id> is used by SKUs\`. ${groupNotFound}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "SKU groups")
  .annotate(OpenApi.Description, "Groups of SKUs, owned by a client.")
{}

export class PickMethodsApi extends HttpApiGroup.make("pickMethods")
  .add(
    HttpApiEndpoint.get("listPickMethods", "/pickmethods")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(PickMethod))
      .annotate(
        OpenApi.Description,
        "The fixed list `[{id: 1, description: \"Per qty\"}, {id: 2, description: \"Per each\"}]`; optional `limit` " +
          "and `offset`."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Pick methods")
  .annotate(OpenApi.Description, "The fixed pick methods a SKU takes.")
{}
