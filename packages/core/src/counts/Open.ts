/**
 * Opening a count: shared by the counts' own calls and by the control count of a short pick
 * (warehouse cycle 3.6 S4).
 */
import { Effect, Option } from "effect"
import { Status } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import type { StoredCount } from "./Count.js"
import type { CountRepository } from "./CountRepository.js"

/** Stores a new Open count of a managed location; none when the location has one that is not over. */
export const openCount = (
  repository: CountRepository["Type"],
  actor: Actor,
  locId: string,
  fields: Pick<StoredCount, "sku_id" | "blind" | "assignee" | "reason">,
  createdAt: string
): Effect.Effect<Option.Option<StoredCount>> => {
  const count = {
    site_id: actor.scope.site_id,
    loc_id: locId,
    ...fields,
    status_id: Status.Open,
    count_index: 1,
    created_by: actor.userId,
    created_at: createdAt
  } as const
  return Effect.map(
    repository.insert(count),
    Option.map((countId): StoredCount => ({
      ...count,
      id: countId,
      location_status: null,
      reason_code: null,
      released_at: null,
      completed_at: null,
      approved_by: null
    }))
  )
}
