/**
 * Exports of `@wms/core` that the engine no longer uses, kept for embedders who may have built on
 * them until the next minor version (CHANGELOG.md, "Deprecated").
 */
import { Schema } from "effect"
import type { CountStatusId } from "./counts/Count.js"

/**
 * An optional text on write: absent or null means none.
 * @deprecated No field of the engine uses it; write
 * `Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })`.
 */
export const OptionalText = Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })

/**
 * The statuses of a count that is not over: Open, Counting, Pending Approval.
 * @deprecated The store keeps one such count per location itself; compare `status_id` with
 * `Status.Open`, `Status.Counting` and `Status.PendingApproval`.
 */
export const openCountStatuses: ReadonlyArray<CountStatusId> = [1, 22, 23]
