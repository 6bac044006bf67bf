import { WaveDefinitions } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { WaveDefinitionsApi } from "./WaveDefinitionsApi.js"

export const WaveDefinitionsTable = Effect.map(WaveDefinitions, (definitions) => ({
  listWaveDefinitions: (actor, { urlParams }) => definitions.list(actor, urlParams),
  createWaveDefinition: (actor, { payload }) => definitions.create(actor, payload),
  getWaveDefinition: (actor, { path }) => definitions.get(actor, path.id),
  updateWaveDefinition: (actor, { path, payload }) => definitions.update(actor, path.id, payload),
  deleteWaveDefinition: (actor, { path }) => definitions.remove(actor, path.id)
} satisfies Table<typeof WaveDefinitionsApi>))
