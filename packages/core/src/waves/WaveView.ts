/**
 * Waves as the API shows them (§2.7): the view of a stored wave, with its quantities or without.
 */
import { statusDescription } from "../shared/Status.js"
import type { WaveDetail, WaveRecord } from "./Wave.js"
import { criteriumDescription, pickTypeDescription } from "./WaveDefinition.js"
import type { StoredWave, WaveTotals } from "./WaveRepository.js"

/** A wave as `GET /waves` shows it. */
export const toWaveRecord = (wave: StoredWave): WaveRecord => ({
  id: wave.id,
  status: statusDescription(wave.status_id),
  status_id: wave.status_id,
  criterium: criteriumDescription(wave.criterium_id),
  criterium_id: wave.criterium_id,
  value: wave.value,
  picktypedescription: pickTypeDescription(wave.pick_type),
  pick_type: wave.pick_type,
  autostart: wave.autostart,
  site_id: wave.site_id
})

/** A wave as `GET /waves/:id` shows it, with its quantities. */
export const toWaveDetail = (wave: StoredWave, totals: WaveTotals): WaveDetail => ({
  ...toWaveRecord(wave),
  ...totals,
  qty_short: totals.qty_ordered - totals.qty_allocated
})
