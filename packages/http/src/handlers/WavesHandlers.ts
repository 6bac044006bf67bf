import { Waves, windowOf } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "./Table.js"

export const WavesTable = Effect.map(Waves, (waves) => ({
  create: (actor, { payload }) => waves.create(actor, payload.wavedef_id),
  start: (actor, { payload }) => waves.start(actor, payload.wave_id),
  list: (actor, { urlParams }) => Effect.map(waves.list(actor), (items) => windowOf(items, urlParams)),
  get: (actor, { path }) => waves.get(actor, path.id),
  remove: (actor, { path }) => waves.remove(actor, path.id),
  orders: (actor, { path, urlParams }) =>
    Effect.map(waves.orders(actor, path.id), (items) => windowOf(items, urlParams)),
  claimsets: (actor, { path, urlParams }) =>
    Effect.map(waves.claimsets(actor, path.id), (items) => windowOf(items, urlParams)),
  claims: (actor, { path, urlParams }) =>
    Effect.map(waves.claims(actor, path.id), (items) => windowOf(items, urlParams)),
  tasks: (actor, { path, urlParams }) => Effect.map(waves.tasks(actor, path.id), (items) => windowOf(items, urlParams))
} satisfies Table<"waves">))
