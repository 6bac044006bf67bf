import { WaveDefinitions } from "@wms/core"
import type { WaveDefinitionInput } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, windowed } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { WaveDefinitionsApi } from "./WaveDefinitionsApi.js"

export const WaveDefinitionsTable = Effect.map(WaveDefinitions, (definitions) => ({
  listWaveDefinitions: (actor, { urlParams }) => definitions.listWaveDefinitions(actor, urlParams),
  createWaveDefinition: (actor, { payload }) => definitions.createWaveDefinition(actor, payload),
  getWaveDefinition: (actor, { path }) => definitions.getWaveDefinition(actor, path.id),
  updateWaveDefinition: (actor, { path, payload }) => definitions.updateWaveDefinition(actor, path.id, payload),
  deleteWaveDefinition: (actor, { path }) => definitions.deleteWaveDefinition(actor, path.id)
} satisfies Table<typeof WaveDefinitionsApi>))

/** The facade's methods of `waveDefinitions`: how each one's arguments make its endpoint's input. */
export const WaveDefinitionsMethods = {
  listWaveDefinitions: windowed,
  getWaveDefinition: byNumber,
  /** Resolves to the new definition's id. */
  createWaveDefinition: (payload: Body<typeof WaveDefinitionInput>) => ({ payload }),
  updateWaveDefinition: (id: number, payload: Body<typeof WaveDefinitionInput>) => ({ ...byNumber(id), payload }),
  deleteWaveDefinition: byNumber
} satisfies Methods<typeof WaveDefinitionsApi>

export const WaveDefinitionsHandlers = { table: WaveDefinitionsTable, methods: WaveDefinitionsMethods }
