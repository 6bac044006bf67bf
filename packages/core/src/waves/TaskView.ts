/**
 * Pick tasks as the API shows them (§2.7). A task is the open side of a claim: it exists while
 * its claim is allocated, and its id is the claim's.
 */
import { formatDate } from "../shared/Formats.js"
import type { ClaimRow } from "./WaveRepository.js"

/** A pick task as `GET /tasks` and `GET /waves/:id/tasks` show it (§2.7). */
export interface TaskRecord {
  readonly id: number
  readonly quantity: number
  readonly tag_id: string
  readonly from_loc_id: string
  readonly to_loc_id: string
  readonly final_loc_id: string
  readonly sku_id: string
  readonly creation_date: string
  readonly wave_id: number
  readonly claimset: number
}

/** The task an open claim carries. */
export const toTask = (claim: ClaimRow, timeZone: string): TaskRecord => ({
  id: claim.id,
  quantity: claim.qty,
  tag_id: claim.tag_id,
  from_loc_id: claim.from_loc_id,
  to_loc_id: claim.to_loc_id,
  final_loc_id: claim.final_loc_id,
  sku_id: claim.sku_id,
  creation_date: formatDate(claim.created_at, timeZone),
  wave_id: claim.wave_id,
  claimset: claim.claimset_id
})
