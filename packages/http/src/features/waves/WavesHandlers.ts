import { inWindow, Waves } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { WavesApi } from "./WavesApi.js"

export const WavesTable = Effect.map(Waves, (waves) => ({
  create: (actor, { payload }) => waves.create(actor, payload.wavedef_id),
  start: (actor, { payload }) => waves.start(actor, payload.wave_id),
  list: (actor, { urlParams }) => inWindow(waves.list(actor), urlParams),
  get: (actor, { path }) => waves.get(actor, path.id),
  remove: (actor, { path }) => waves.remove(actor, path.id),
  orders: (actor, { path, urlParams }) => inWindow(waves.orders(actor, path.id), urlParams),
  claimsets: (actor, { path, urlParams }) => inWindow(waves.claimsets(actor, path.id), urlParams),
  claims: (actor, { path, urlParams }) => inWindow(waves.claims(actor, path.id), urlParams),
  tasks: (actor, { path, urlParams }) => inWindow(waves.tasks(actor, path.id), urlParams)
} satisfies Table<typeof WavesApi>))
