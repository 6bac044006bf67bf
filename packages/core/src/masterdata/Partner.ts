/**
 * A customer or supplier (§2.8) as the API shows it and as POST and PUT write it: one shape for
 * both kinds.
 */
import { Schema } from "effect"
import { OptionalMasterText, RequiredText } from "./MasterData.js"

/** Which of the two kinds of partner. */
export type PartnerKind = "customer" | "supplier"

/** A customer or supplier as lists show it. */
export const Partner = Schema.Struct({
  id: Schema.Number,
  address_id: Schema.Number,
  name: Schema.String,
  attention: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  zipcode: Schema.NullOr(Schema.String),
  town: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  website: Schema.NullOr(Schema.String)
})
export type Partner = typeof Partner.Type

/** The single-record view: the record and its `address_type`, `"customer"` or `"supplier"`. */
export const PartnerDetail = Schema.Struct({
  ...Partner.fields,
  address_type: Schema.Literal("customer", "supplier")
})
export type PartnerDetail = typeof PartnerDetail.Type

/** The body of POST and PUT: a PUT replaces every field, an absent optional one becomes `null`. */
export const PartnerInput = Schema.Struct({
  name: RequiredText,
  attention: OptionalMasterText,
  address: OptionalMasterText,
  zipcode: OptionalMasterText,
  town: OptionalMasterText,
  country: OptionalMasterText,
  phone: OptionalMasterText,
  website: OptionalMasterText
})
export type PartnerInput = typeof PartnerInput.Type
