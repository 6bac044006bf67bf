/**
 * A SKU (§2.4, DECISIONS §5) as the API shows and lists it, and as POST and PUT write it.
 */
import { Schema } from "effect"
import { OptionalClientId, OptionalMasterText, RequiredText, TextId } from "./MasterData.js"
import { pickMethods } from "./PickMethods.js"

/** A SKU as `GET /skus/:id` shows it; `sku_group` is the group's id. */
export const Sku = Schema.Struct({
  sku_id: Schema.String,
  client_id: Schema.NullOr(Schema.String),
  description: Schema.String,
  ean: Schema.NullOr(Schema.String),
  sku_group: Schema.NullOr(Schema.String),
  expiry_sku: Schema.Boolean,
  expiry_days: Schema.NullOr(Schema.Number),
  obsolete: Schema.Boolean,
  new: Schema.Boolean,
  each_width: Schema.NullOr(Schema.Number),
  each_height: Schema.NullOr(Schema.Number),
  each_depth: Schema.NullOr(Schema.Number),
  each_weight: Schema.NullOr(Schema.Number),
  each_volume: Schema.NullOr(Schema.Number),
  each_value: Schema.NullOr(Schema.Number),
  preferred_putaway_location: Schema.NullOr(Schema.String),
  qty_on_full_pallet: Schema.NullOr(Schema.Number),
  default_receipt_quantity: Schema.NullOr(Schema.Number),
  pick_method: Schema.Number
})
export type Sku = typeof Sku.Type

/** A SKU as `GET /skus` lists it. */
export const SkuListItem = Schema.Struct({
  sku_id: Schema.String,
  client_id: Schema.NullOr(Schema.String),
  description: Schema.String,
  ean: Schema.NullOr(Schema.String),
  sku_group_description: Schema.NullOr(Schema.String),
  expiry_sku: Schema.Boolean,
  expiry_days: Schema.NullOr(Schema.Number)
})
export type SkuListItem = typeof SkuListItem.Type

// Whole numbers fit the store's 32-bit INTEGER columns.
const Count = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= 2147483647, {
    message: () => "must be a whole number from 0 to 2147483647",
    jsonSchema: { type: "integer", minimum: 0, maximum: 2147483647 }
  })
)

const Measure = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n >= 0, {
    message: () => "must be a number of at least 0",
    jsonSchema: { minimum: 0 }
  })
)

const PickMethodId = Schema.Number.pipe(
  Schema.filter((n) => pickMethods.some((method) => method.id === n), {
    message: () => "must be 1 (per qty) or 2 (per each)",
    jsonSchema: { type: "integer", enum: pickMethods.map((method) => method.id) }
  })
)

const optionalNull = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

const flag = (value: boolean) => Schema.optionalWith(Schema.Boolean, { default: () => value, nullable: true })

const writableFields = {
  description: RequiredText,
  ean: OptionalMasterText,
  sku_group: OptionalMasterText,
  expiry_sku: flag(false),
  expiry_days: optionalNull(Count),
  obsolete: flag(false),
  new: flag(true),
  each_width: optionalNull(Measure),
  each_height: optionalNull(Measure),
  each_depth: optionalNull(Measure),
  each_weight: optionalNull(Measure),
  each_volume: optionalNull(Measure),
  each_value: optionalNull(Measure),
  preferred_putaway_location: OptionalMasterText,
  qty_on_full_pallet: optionalNull(Count),
  default_receipt_quantity: optionalNull(Count),
  pick_method: Schema.optionalWith(PickMethodId, { default: () => 1, nullable: true }),
  client_id: OptionalClientId
}

/** The body of `POST /skus`. */
export const NewSku = Schema.Struct({ sku_id: TextId, ...writableFields })
export type NewSku = typeof NewSku.Type

/** The body of `PUT /skus/:id`: `sku_id`, when sent, repeats the path's id. */
export const SkuUpdate = Schema.Struct({ sku_id: Schema.optional(Schema.String), ...writableFields })
export type SkuUpdate = typeof SkuUpdate.Type
