/**
 * Branded identifiers of the records that scope every request.
 */
import { Schema } from "effect"
import { StoredText } from "./Text.js"

const IdText = StoredText.pipe(Schema.minLength(1), Schema.maxLength(64))

/** A warehouse site, e.g. `main`. */
export const SiteId = IdText.pipe(Schema.brand("SiteId"))
export type SiteId = typeof SiteId.Type

/** A client of a fulfillment site; unique across the whole installation. */
export const ClientId = IdText.pipe(Schema.brand("ClientId"))
export type ClientId = typeof ClientId.Type

/** A user, the `userId` of the login result and the `created_by` of records. */
export const UserId = Schema.String.pipe(Schema.minLength(1), Schema.brand("UserId"))
export type UserId = typeof UserId.Type
