/**
 * A wave definition (§2.6) as the API shows it and as POST and PUT write it: its selection
 * criteria and pick types, by id, in the documented words.
 */
import { Schema } from "effect"
import { OptionalMasterText, RequiredText } from "../masterdata/MasterData.js"

/** A selection criterion id (§2.6): 1 to 8. One message for any other value, whatever its type. */
export const CriteriumId = Schema.Literal(1, 2, 3, 4, 5, 6, 7, 8).annotations({
  message: () => ({ message: "must be an integer from 1 to 8", override: true })
})
export type CriteriumId = typeof CriteriumId.Type

/** A pick type id (§2.6): 1 to 4. */
export const PickTypeId = Schema.Literal(1, 2, 3, 4).annotations({
  message: () => ({ message: "must be an integer from 1 to 4", override: true })
})
export type PickTypeId = typeof PickTypeId.Type

/** The selection criteria of §2.6, by id, in the documented words. */
export const criteria: { readonly [K in CriteriumId]: string } = {
  1: "Klant - Naam",
  2: "Order - Order ID",
  3: "Order - Datum",
  4: "Order - Vervoerder",
  5: "Alles",
  6: "Klant - Plaats",
  7: "Order - Te verzenden datum",
  8: "Fulfillment - Per client"
}

/** The pick types of §2.6, by id, in the documented words. */
export const pickTypes: { readonly [K in PickTypeId]: string } = {
  1: "Per order",
  2: "Per wave",
  3: "Per klant",
  4: "Per vervoerder"
}

const describe = (table: Readonly<Record<number, string>>, name: string, id: number): string => {
  const description = table[id]
  // The store's CHECK constraints keep ids in range: another id is a defect, not a user error.
  if (description === undefined) throw new Error(`Unknown ${name} ${id}`)
  return description
}

/** The description of a criterion id (`criterium` on a definition or a wave). */
export const criteriumDescription = (id: number): string => describe(criteria, "criterium_id", id)

/** The description of a pick type id (`picktypedescription`, and a claimset's `pick_type`). */
export const pickTypeDescription = (id: number): string => describe(pickTypes, "pick_type", id)

/**
 * The calendar date `YYYY-MM-DD` of a `DD-MM-YYYY` value, or `null` when the text is not such a
 * date or the date does not exist (`31-02-2024`).
 */
export const calendarDateOfDutchDate = (value: string): string | null => {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(value)
  if (match === null) return null
  const [, day, month, year] = match
  const date = new Date(0)
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day))
  const iso = `${year}-${month}-${day}`
  return Number(year) >= 1 && date.toISOString().slice(0, 10) === iso ? iso : null
}

/** A wave definition as the API shows it. */
export const WaveDefinition = Schema.Struct({
  id: Schema.Number,
  description: Schema.String,
  criterium_id: CriteriumId,
  criterium: Schema.String,
  value: Schema.NullOr(Schema.String),
  pick_type: PickTypeId,
  picktypedescription: Schema.String,
  autostart: Schema.Boolean,
  site_id: Schema.String
})
export type WaveDefinition = typeof WaveDefinition.Type

/**
 * The body of POST and PUT: a PUT replaces every writable field, so an absent `value` becomes
 * `null` and an absent `autostart` `false`. An empty `value` counts as absent.
 */
export const WaveDefinitionInput = Schema.Struct({
  description: RequiredText,
  criterium_id: CriteriumId,
  value: OptionalMasterText,
  pick_type: PickTypeId,
  autostart: Schema.optionalWith(Schema.Boolean, { nullable: true, default: () => false })
})
export type WaveDefinitionInput = typeof WaveDefinitionInput.Type
