import { inWindow, Waves } from "@wms/core"
import { Effect } from "effect"
import { byNumber, everything } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
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

/** The facade's methods of `waves`: how each one's arguments make its endpoint's input. */
export const WavesMethods = {
  /** Creates a wave from a definition: `{message, wave_id}`. */
  create: (wavedefId: number) => ({ payload: { wavedef_id: wavedefId } }),
  /** Allocates the wave's orders and creates its pick tasks: `{message}`. */
  start: (waveId: number) => ({ payload: { wave_id: waveId } }),
  list: everything,
  get: byNumber,
  /** Releases the wave's allocation and removes it; once picking has started, a `Conflict`. */
  remove: byNumber,
  orders: (id: number) => ({ ...byNumber(id), ...everything() }),
  claimsets: (id: number) => ({ ...byNumber(id), ...everything() }),
  claims: (id: number) => ({ ...byNumber(id), ...everything() }),
  tasks: (id: number) => ({ ...byNumber(id), ...everything() })
} satisfies Methods<typeof WavesApi>

export const WavesHandlers = { table: WavesTable, methods: WavesMethods }
