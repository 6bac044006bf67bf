import { WaveDefinitions } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { WaveDefinitionsApi } from "./WaveDefinitionsApi.js"

export const WaveDefinitionsTable = Effect.map(WaveDefinitions, (definitions) => ({
  listWaveDefinitions: (actor, { urlParams }) => definitions.listWaveDefinitions(actor, urlParams),
  createWaveDefinition: (actor, { payload }) => definitions.createWaveDefinition(actor, payload),
  getWaveDefinition: (actor, { path }) => definitions.getWaveDefinition(actor, path.id),
  updateWaveDefinition: (actor, { path, payload }) => definitions.updateWaveDefinition(actor, path.id, payload),
  deleteWaveDefinition: (actor, { path }) => definitions.deleteWaveDefinition(actor, path.id)
} satisfies Table<typeof WaveDefinitionsApi>))
