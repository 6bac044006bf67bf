/**
 * Packing into shipping units (spec §4 of HOLDS-RETURNS-TRANSFERS-PACKING): cartons and pallets
 * of one order with their GS1 SSCCs, their lines and weights, and the order's packing list.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  CompanyPrefixMissing,
  NewShippingUnit,
  NewShippingUnitLine,
  OrderIdFromPath,
  OrderNotFound,
  OrderPackingClosed,
  PackedExceedsPicked,
  PackingList,
  RecordIdFromPath,
  ShippingUnit,
  ShippingUnitCarriesOpen,
  ShippingUnitEmpty,
  ShippingUnitLineNotFound,
  ShippingUnitNotFound,
  ShippingUnitNotOpen,
  ShippingUnitQuery,
  ShippingUnitShipped,
  ShippingUnitUpdate,
  SsccSerialsExhausted,
  SsccTaken
} from "@wms/core"
import { Schema } from "effect"
import { returned } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"
import { PackingListCsv } from "./PackingListCsv.js"

const IdPath = Schema.Struct({ id: RecordIdFromPath })
const unitId = HttpApiSchema.param("id", RecordIdFromPath)
const orderLine = HttpApiSchema.param("order_line", RecordIdFromPath)

const notFound = "A unit missing in the scope: 404 `Shipping unit <id> not found`; a non-integer id: 400."
const packs = "Each line's `order_line` must be a line of the unit's order (400 `Invalid field …order_line: order " +
  "<order_id> has no line <n>`), and what the order's units hold of a line never exceeds its `qty_picked`, also " +
  "across processes: 409 `Line <n> of order <order_id> has <picked> picked and <packed> packed: <qty> more exceeds " +
  "what was picked`. Packing never changes stock."

export class ShippingUnitsApi extends HttpApiGroup.make("shippingUnits")
  .add(
    HttpApiEndpoint.get("listShippingUnits", "/shipping-units")
      .setUrlParams(ShippingUnitQuery)
      .addSuccess(Schema.Array(ShippingUnit))
      .annotate(
        OpenApi.Description,
        "The shipping units of the scope, by id; optional filters `order_id` and `status_id` (1 Open, 20 Complete, " +
          "19 Shipped), and `limit`/`offset`."
      )
  )
  .add(
    HttpApiEndpoint.post("createShippingUnit", "/shipping-units")
      .setPayload(NewShippingUnit)
      .addSuccess(ShippingUnit, { status: 201 })
      .annotate(ReadOnlyFields, ShippingUnit)
      .annotateContext(returned("/shipping-units", "id"))
      .addError(onTheWire(OrderNotFound))
      .addError(onTheWire(ShippingUnitNotFound))
      .addError(onTheWire(OrderPackingClosed))
      .addError(onTheWire(CompanyPrefixMissing))
      .addError(onTheWire(SsccSerialsExhausted))
      .addError(onTheWire(SsccTaken))
      .addError(onTheWire(ShippingUnitNotOpen))
      .addError(onTheWire(PackedExceedsPicked))
      .annotate(
        OpenApi.Description,
        "Body `{order_id, unit_type: \"Carton\" | \"Pallet\", sscc?, parent_id?, tare_weight?, lines?: " +
          "[{order_line, qty}]}`: an Open (1) unit of the order (missing: 404 `Order with OrderID <id> not found`; " +
          "shipped: 409 `Order <id> is shipped: its packing cannot change`), owned by the order's owner. Without " +
          "`sscc` it gets the next SSCC-18 of the site: the site setting `sscc_extension_digit`, its " +
          "`gs1_company_prefix` (none: 409 `Site <id> has no gs1_company_prefix`), a serial of the site's counter " +
          "taken in this transaction, padded to 17 digits, and the GS1 mod-10 check digit; a serial past what the " +
          "prefix leaves room for: 409 `Site <id> has used every SSCC serial of company prefix <prefix>`. A " +
          "client's own `sscc` must be 18 digits with a valid check digit (400) and unique on the site (409 `SSCC " +
          "<sscc> is in use on the site`); the counter skips one a client took. A Carton may name an Open Pallet " +
          "of the same order as `parent_id` (else 400 naming `parent_id`, or 409 `Shipping unit <id> is Complete: " +
          "its contents cannot change`). `tare_weight` defaults to 0. " + packs + " 201 with the unit."
      )
  )
  .add(
    HttpApiEndpoint.get("getShippingUnit")`/shipping-units/${unitId}`
      .addSuccess(ShippingUnit)
      .addError(onTheWire(ShippingUnitNotFound))
      .annotate(
        OpenApi.Description,
        "One shipping unit. `weight` is `tare_weight` plus each line's qty times its SKU's `each_weight` (none: " +
          `0), and a pallet's includes its cartons', as of the last change of what they hold. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.put("updateShippingUnit", "/shipping-units/:id")
      .setPath(IdPath)
      .setPayload(ShippingUnitUpdate)
      .annotate(ReadOnlyFields, ShippingUnit)
      .addError(onTheWire(ShippingUnitNotFound))
      .addError(onTheWire(ShippingUnitShipped))
      .annotate(
        OpenApi.Description,
        "Body `{tracking_number?, length?, width?, height?}`: the fields present change (null clears one), at any " +
          `status before Shipped (409 \`Shipping unit <id> is shipped\`). 204. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteShippingUnit", "/shipping-units/:id")
      .setPath(IdPath)
      .addError(onTheWire(ShippingUnitNotFound))
      .addError(onTheWire(ShippingUnitShipped))
      .addError(onTheWire(ShippingUnitNotOpen))
      .annotate(
        OpenApi.Description,
        "Unpacks the unit until it is shipped: its lines are free to pack again, and a pallet's cartons stay, " +
          "without a parent. A carton leaves only an Open pallet (409 `Shipping unit <pallet> is Complete: its " +
          `contents cannot change\`). 204. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.post("addShippingUnitLine")`/shipping-units/${unitId}/lines`
      .setPayload(NewShippingUnitLine)
      .addError(onTheWire(ShippingUnitNotFound))
      .addError(onTheWire(ShippingUnitNotOpen))
      .addError(onTheWire(PackedExceedsPicked))
      .annotate(
        OpenApi.Description,
        "Body `{order_line, qty}`: packs `qty` more of the order line into the Open unit (else 409 `Shipping unit " +
          `<id> is <status>: its contents cannot change\`). ${packs} 204. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteShippingUnitLine")`/shipping-units/${unitId}/lines/${orderLine}`
      .addError(onTheWire(ShippingUnitNotFound))
      .addError(onTheWire(ShippingUnitNotOpen))
      .addError(onTheWire(ShippingUnitLineNotFound))
      .annotate(
        OpenApi.Description,
        "Takes the order line out of the Open unit: 404 `Shipping unit <id> holds no order line <n>` when it " +
          `holds none. 204. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.post("closeShippingUnit")`/shipping-units/${unitId}/close`
      .addError(onTheWire(ShippingUnitNotFound))
      .addError(onTheWire(ShippingUnitNotOpen))
      .addError(onTheWire(ShippingUnitEmpty))
      .addError(onTheWire(ShippingUnitCarriesOpen))
      .annotate(
        OpenApi.Description,
        "Closes an Open unit: Complete (20), its lines fixed. A unit with no line and no carton: 409 `Shipping " +
          "unit <id> is empty`; a pallet with a carton still Open: 409 `Shipping unit <id> carries open carton " +
          `<carton>\`. Shipping the order makes its units Shipped (19). 204. ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.get("getPackingList")`/orders/${HttpApiSchema.param("id", OrderIdFromPath)}/packing-list`
      .setHeaders(Schema.Struct({ accept: Schema.optional(Schema.String) }))
      .addSuccess(PackingList)
      .addSuccess(PackingListCsv)
      .addError(onTheWire(OrderNotFound))
      .annotate(
        OpenApi.Description,
        "The order's shipping units by id, each with its SSCC, type, parent's SSCC, status, weights, dimensions, " +
          "tracking number and lines; `total_weight` sums the units without a parent. With `Accept: text/csv`, " +
          "the same as CSV: a header row, then a row per line of each unit (the unit's columns on each; a unit " +
          "without lines has one row, its line columns empty). A missing order: 404 `Order with OrderID <id> not " +
          "found`."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Shipping units")
  .annotate(
    OpenApi.Description,
    "Packing picked goods into cartons and pallets with GS1 SSCC-18 labels. Every write to an order's units " +
      "locks the order, then the order lines it packs."
  )
{}
