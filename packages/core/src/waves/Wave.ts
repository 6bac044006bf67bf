/**
 * A wave (§2.7) as the API shows it, and the bodies that create and start one.
 */
import { Schema } from "effect"
import { RecordId } from "../shared/Formats.js"

/** The body of `POST /waves/create`. */
export const CreateWaveRequest = Schema.Struct({
  wavedef_id: RecordId
})

/** The body of `POST /waves/start`. */
export const StartWaveRequest = Schema.Struct({
  wave_id: RecordId
})

/** A wave as `GET /waves` shows it (§2.7). */
export interface WaveRecord {
  readonly id: number
  readonly status: string
  readonly status_id: number
  readonly criterium: string
  readonly criterium_id: number
  readonly value: string | null
  readonly picktypedescription: string
  readonly pick_type: number
  readonly autostart: boolean
  readonly site_id: string
}

/** `GET /waves/:id`: the wave with its quantities. */
export interface WaveDetail extends WaveRecord {
  readonly order_count: number
  readonly qty_ordered: number
  readonly qty_allocated: number
  readonly qty_short: number
}
