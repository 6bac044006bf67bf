/**
 * Wave definitions (§2.6, §4.6 of the API document).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListWindow, RecordIdFromPath, WaveDefinition, WaveDefinitionInput, WaveDefinitionNotFound } from "@wms/core"
import { Schema } from "effect"
import { generated } from "../../api/CreatedAt.js"
import { onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const IdPath = Schema.Struct({ id: RecordIdFromPath })

const notFound = "Missing on the site: 404 `Wave definitie met id <id> niet gevonden`; a non-integer id: 400."

const body =
  "`description` is required and not blank. `criterium_id` must be an integer from 1 to 8 and `pick_type` one " +
  "from 1 to 4 (otherwise 400 `Invalid field criterium_id: must be an integer from 1 to 8`, likewise for " +
  "`pick_type`). `value` depends on the criterion: for 3 (Order - Datum) and 7 (Order - Te verzenden datum) an " +
  "existing date `DD-MM-YYYY` (otherwise 400 `Invalid field value: must be a date DD-MM-YYYY`); for 5 (Alles) it " +
  "is ignored and stored as null; for the others a non-blank text. A value that a criterion needs but that is " +
  "absent, null, empty or blank: 400 `Invalid field value: is required for criterium <n>`. `autostart` is " +
  "optional; absent or null means false."

export class WaveDefinitionsApi extends HttpApiGroup.make("waveDefinitions")
  .add(
    HttpApiEndpoint.get("listWaveDefinitions", "/wave-definitions")
      .setUrlParams(ListWindow)
      .addSuccess(Schema.Array(WaveDefinition))
      .annotate(OpenApi.Description, "The wave definitions of the site, by id; optional `limit` and `offset`.")
  )
  .add(
    HttpApiEndpoint.post("createWaveDefinition", "/wave-definitions")
      .setPayload(WaveDefinitionInput)
      .annotate(ReadOnlyFields, WaveDefinition)
      .annotateContext(generated("/wave-definitions"))
      .annotate(OpenApi.Description, `Creates a wave definition of the site: 204. ${body}`)
  )
  .add(
    HttpApiEndpoint.get("getWaveDefinition", "/wave-definitions/:id")
      .setPath(IdPath)
      .addSuccess(WaveDefinition)
      .addError(onTheWire(WaveDefinitionNotFound))
      .annotate(OpenApi.Description, `One wave definition, the same record as in the list. ${notFound}`)
  )
  .add(
    HttpApiEndpoint.put("updateWaveDefinition", "/wave-definitions/:id")
      .setPath(IdPath)
      .setPayload(WaveDefinitionInput)
      .annotate(ReadOnlyFields, WaveDefinition)
      .addError(onTheWire(WaveDefinitionNotFound))
      .annotate(
        OpenApi.Description,
        "Replaces every writable field with the body, which is the same as on create: an absent `value` becomes " +
          `null and an absent \`autostart\` false. 204. ${body} ${notFound}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteWaveDefinition", "/wave-definitions/:id")
      .setPath(IdPath)
      .addError(onTheWire(WaveDefinitionNotFound))
      .annotate(
        OpenApi.Description,
        `204. Waves created from the definition keep their criterion, value and pick type. ${notFound}`
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Wave definitions")
  .annotate(
    OpenApi.Description,
    "A wave definition belongs to the site, not to a client: every scope of the site (a client's included) sees " +
      "and maintains the same definitions. `criterium` and `picktypedescription` are the documented texts of " +
      "`criterium_id` and `pick_type`. A wave copies criterion, value and pick type when it is created, so " +
      "changing or deleting a definition never changes an existing wave."
  )
{}
