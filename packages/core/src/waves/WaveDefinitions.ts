/**
 * Wave definitions (§2.6): a named selection criterion with its value, a pick type and whether a
 * wave made from it starts at once. A definition belongs to a site, like a carrier: every scope of
 * the site sees and maintains the same definitions. A wave copies criterion, value and pick type
 * when it is created, so changing or deleting a definition never touches an existing wave.
 */
import { Effect, Option } from "effect"
import { invalidField } from "../shared/Errors.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import type { ListWindow } from "../shared/Window.js"
import { WaveDefinitionNotFound } from "./Errors.js"
import {
  calendarDateOfDutchDate,
  criteriumDescription,
  type CriteriumId,
  pickTypeDescription,
  type WaveDefinition,
  type WaveDefinitionInput
} from "./WaveDefinition.js"
import { WaveDefinitionRepository, type WaveDefinitionRow } from "./WaveDefinitionRepository.js"

// Order date (3) and ship-by date (7) take a `DD-MM-YYYY` value; "Alles" (5) takes none.
const dateCriteria: ReadonlySet<CriteriumId> = new Set([3, 7])
const allOrdersCriterium: CriteriumId = 5

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

const notFound = (id: number) => new WaveDefinitionNotFound({ waveDefinitionId: id })

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

    return {
      listWaveDefinitions: list,
      getWaveDefinition: get,
      createWaveDefinition: create,
      updateWaveDefinition: update,
      deleteWaveDefinition: remove,
      /** @deprecated Use `listWaveDefinitions`. */
      list,
      /** @deprecated Use `getWaveDefinition`. */
      get,
      /** @deprecated Use `createWaveDefinition`. */
      create,
      /** @deprecated Use `updateWaveDefinition`. */
      update,
      /** @deprecated Use `deleteWaveDefinition`. */
      remove
    } as const
  })
}) {}
