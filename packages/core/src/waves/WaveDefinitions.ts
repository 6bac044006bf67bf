/**
 * Wave definitions (§2.6): a named selection criterion with its value, a pick type and whether a
 * wave made from it starts at once. A definition belongs to a site, like a carrier: every scope of
 * the site sees and maintains the same definitions. A wave copies criterion, value and pick type
 * when it is created, so changing or deleting a definition never touches an existing wave.
 */
import { Effect, Option, Schema } from "effect"
import { invalidField, NotFound } from "../shared/Errors.js"
import { type ListWindow, OptionalMasterText, RequiredText } from "../masterdata/MasterData.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { WaveDefinitionRepository, type WaveDefinitionRow } from "./WaveDefinitionRepository.js"

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

// Order date (3) and ship-by date (7) take a `DD-MM-YYYY` value; "Alles" (5) takes none.
const dateCriteria: ReadonlySet<CriteriumId> = new Set([3, 7])
const allOrdersCriterium: CriteriumId = 5

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

// The value checked against the criterion: a real `DD-MM-YYYY` date for 3 and 7, nothing for 5
// (whatever was sent is dropped), a non-blank text for the others.
const checkInput = (input: WaveDefinitionInput) => {
  if (input.criterium_id === allOrdersCriterium) return Effect.succeed({ ...input, value: null })
  if (input.value === null || input.value.trim() === "") {
    return Effect.fail(invalidField("value", `is required for criterium ${input.criterium_id}`))
  }
  if (dateCriteria.has(input.criterium_id) && calendarDateOfDutchDate(input.value) === null) {
    return Effect.fail(invalidField("value", "must be a date DD-MM-YYYY"))
  }
  return Effect.succeed(input)
}

const withDescriptions = (row: WaveDefinitionRow): WaveDefinition => ({
  id: row.id,
  description: row.description,
  criterium_id: row.criterium_id,
  criterium: criteriumDescription(row.criterium_id),
  value: row.value,
  pick_type: row.pick_type,
  picktypedescription: pickTypeDescription(row.pick_type),
  autostart: row.autostart,
  site_id: row.site_id
})

const notFound = (id: number) => new NotFound({ message: `Wave definitie met id ${id} niet gevonden` })

/**
 * The wave definitions of the caller's site: every method takes the `Actor` first; a definition of
 * another site is a 404 `Wave definitie met id <id> niet gevonden`.
 */
export class WaveDefinitions extends Effect.Service<WaveDefinitions>()("@wms/core/WaveDefinitions", {
  effect: Effect.gen(function*() {
    const repository = yield* WaveDefinitionRepository
    const { atomically } = yield* Transactor

    const list = Effect.fnUntraced(function*(actor: Actor, window: ListWindow = {}) {
      const rows = yield* repository.list(actor.scope.site_id, window)
      return rows.map(withDescriptions)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, id: number) {
      const found = yield* repository.find(actor.scope.site_id, id)
      return Option.isSome(found) ? withDescriptions(found.value) : yield* notFound(id)
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: WaveDefinitionInput) {
      const checked = yield* checkInput(input)
      return yield* repository.insert(actor.scope.site_id, checked)
    }, atomically)

    // The site is part of the condition of the write itself, so no other site's row can be hit.
    const update = Effect.fnUntraced(
      function*(actor: Actor, id: number, input: WaveDefinitionInput) {
        const checked = yield* checkInput(input)
        if (!(yield* repository.update(actor.scope.site_id, id, checked))) return yield* notFound(id)
      },
      atomically
    )

    const remove = Effect.fnUntraced(function*(actor: Actor, id: number) {
      if (!(yield* repository.remove(actor.scope.site_id, id))) return yield* notFound(id)
    }, atomically)

    return { list, get, create, update, remove } as const
  })
}) {}
