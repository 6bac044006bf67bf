/**
 * Branded identifiers of the records that scope every request.
 */
import { Schema } from "effect"

// PostgreSQL cannot store U+0000 in text: refusing it in the id keeps it a 400, never a 500.
const IdText = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(64),
  Schema.filter((s) => !s.includes("\u0000"), { message: () => "must not contain NUL characters" })
)

/** A warehouse site, e.g. `main`. */
export const SiteId = IdText.pipe(Schema.brand("SiteId"))
export type SiteId = typeof SiteId.Type

/** A client of a fulfillment site; unique across the whole installation. */
export const ClientId = IdText.pipe(Schema.brand("ClientId"))
export type ClientId = typeof ClientId.Type

/** A user, the `userId` of the login result and the `created_by` of records. */
export const UserId = Schema.String.pipe(Schema.minLength(1), Schema.brand("UserId"))
export type UserId = typeof UserId.Type
