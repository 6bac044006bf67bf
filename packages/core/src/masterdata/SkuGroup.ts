/**
 * A SKU group (§2.4) as the API shows it and as POST and PUT write it, and its owner.
 */
import { Schema } from "effect"
import { ClientId, type SiteId } from "../shared/Ids.js"
import { OptionalClientId, RequiredText } from "./MasterData.js"

/** A SKU group as the API shows it. */
export const SkuGroup = Schema.Struct({
  sku_group_id: Schema.String,
  description: Schema.String,
  client_id: Schema.NullOr(Schema.String)
})
export type SkuGroup = typeof SkuGroup.Type

/** The body of `POST /skugroups`; the id is generated. */
export const NewSkuGroup = Schema.Struct({
  description: RequiredText,
  client_id: OptionalClientId
})
export type NewSkuGroup = typeof NewSkuGroup.Type

/** The body of `PUT /skugroups/:id`: `sku_group_id`, when sent, repeats the path's id. */
export const SkuGroupUpdate = Schema.Struct({
  sku_group_id: Schema.optional(Schema.String),
  description: RequiredText,
  client_id: OptionalClientId
})
export type SkuGroupUpdate = typeof SkuGroupUpdate.Type

/** The owner of a group of a site. */
export const skuGroupOwner = (siteId: SiteId, group: SkuGroup) => ({
  site_id: siteId,
  client_id: group.client_id === null ? null : ClientId.make(group.client_id)
})
