/**
 * Pick faces (extension, warehouse cycle §3.4): the setting of one SKU at one managed `PickFace`
 * location, `min_qty` and `max_qty` with an optional `replenish_multiple`, and what the face holds
 * of the SKU. Replenishment keeps the face's level between them (`Replenish.ts`).
 */
import { Schema } from "effect"
import { TextIdFromPath } from "../masterdata/MasterData.js"
import { maxQuantity } from "../shared/Formats.js"
import { ListWindow } from "../shared/Window.js"

const WholeQuantity = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= maxQuantity, {
    message: () => `must be a whole number from 0 to ${maxQuantity}`,
    jsonSchema: { type: "integer", minimum: 0, maximum: maxQuantity }
  })
)
const PositiveQuantity = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= maxQuantity, {
    message: () => `must be a whole number from 1 to ${maxQuantity}`,
    jsonSchema: { type: "integer", minimum: 1, maximum: maxQuantity }
  })
)

/**
 * The body of `PUT /pick-faces/:sku_id/:loc_id`, an upsert: `0 ≤ min_qty < max_qty`;
 * `replenish_multiple` (a case or pallet size) rounds replenishments down to whole multiples.
 */
export const PickFaceSetting = Schema.Struct({
  min_qty: WholeQuantity,
  max_qty: WholeQuantity,
  replenish_multiple: Schema.optionalWith(Schema.NullOr(PositiveQuantity), { default: () => null })
})
export type PickFaceSetting = typeof PickFaceSetting.Type

/** A pick-face setting as the store keeps it. */
export interface StoredPickFace {
  readonly site_id: string
  readonly sku_id: string
  readonly loc_id: string
  readonly min_qty: number
  readonly max_qty: number
  readonly replenish_multiple: number | null
}

/**
 * What a face holds of its SKU, read under the face's lock: on hand and allocated at the face,
 * and what Open movement tasks bring there (of any type), of which `replenishing` by Replenish
 * tasks.
 */
export interface FaceStock {
  readonly qty: number
  readonly qty_allocated: number
  readonly inbound: number
  readonly replenishing: number
}

/**
 * A face's level (R2): what it holds for picking once its open tasks arrive, `qty + inbound −
 * qty_allocated`. Every Open task to the face counts, not only Replenish ones, so a putaway or a
 * move on its way can never make a replenishment overfill it.
 */
export const levelOf = (stock: FaceStock): number => stock.qty + stock.inbound - stock.qty_allocated

/** A pick face as `GET /pick-faces` shows it: the setting, and the face's stock of the SKU. */
export const PickFaceRecord = Schema.Struct({
  sku_id: Schema.String,
  loc_id: Schema.String,
  min_qty: Schema.Number,
  max_qty: Schema.Number,
  replenish_multiple: Schema.NullOr(Schema.Number),
  qty: Schema.Number,
  qty_allocated: Schema.Number,
  inbound_qty: Schema.Number,
  level: Schema.Number
})
export type PickFaceRecord = typeof PickFaceRecord.Type

/** The filters of `GET /pick-faces`. */
export interface PickFaceFilter {
  readonly sku_id?: string | undefined
  readonly loc_id?: string | undefined
  readonly zone?: string | undefined
}

/** The query of `GET /pick-faces`: optional `sku_id` and `loc_id`, and a list window. */
export const PickFaceQuery = Schema.Struct({
  sku_id: Schema.optional(TextIdFromPath),
  loc_id: Schema.optional(TextIdFromPath),
  ...ListWindow.fields
})
export type PickFaceQuery = typeof PickFaceQuery.Type

/** The body of `POST /replenishments/run`: the faces of one SKU, or of one zone, or all. */
export const ReplenishmentRunRequest = Schema.Struct({
  sku_id: Schema.optionalWith(Schema.NullOr(TextIdFromPath), { default: () => null }),
  zone: Schema.optionalWith(Schema.NullOr(TextIdFromPath), { default: () => null })
})
export type ReplenishmentRunRequest = typeof ReplenishmentRunRequest.Type

/** The answer of `POST /replenishments/run`: the ids of the Replenish tasks it opened. */
export const ReplenishmentReport = Schema.Struct({ tasks: Schema.Array(Schema.Number) })
export type ReplenishmentReport = typeof ReplenishmentReport.Type
