/**
 * A carrier (§2.9) as the API shows it and as POST and PUT write it.
 */
import { Schema } from "effect"
import { OptionalMasterText, RequiredText } from "./MasterData.js"

/** A carrier as the API shows it. */
export const Carrier = Schema.Struct({
  id: Schema.Number,
  site_id: Schema.String,
  name: Schema.String,
  address: Schema.NullOr(Schema.String),
  zipcode: Schema.NullOr(Schema.String),
  town: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String)
})
export type Carrier = typeof Carrier.Type

/** The body of POST and PUT: a PUT replaces every field, an absent optional one becomes `null`. */
export const CarrierInput = Schema.Struct({
  name: RequiredText,
  address: OptionalMasterText,
  zipcode: OptionalMasterText,
  town: OptionalMasterText,
  country: OptionalMasterText,
  phone: OptionalMasterText,
  url: OptionalMasterText
})
export type CarrierInput = typeof CarrierInput.Type
