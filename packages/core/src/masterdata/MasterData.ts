/**
 * What the master-data records (customers, suppliers, carriers, SKU groups, SKUs) share: their
 * text fields on write, the owner they keep, and a stored record together with its owner.
 */
import { Schema } from "effect"
import { invalidField } from "../shared/Errors.js"
import { ClientId } from "../shared/Ids.js"
import type { Owner } from "../shared/Tenancy.js"
import { StoredText } from "../shared/Text.js"

/** A text id in a path (`sku_id`, `sku_group_id`): any text the stores can look up. */
export const TextIdFromPath = StoredText

/** A required text: a string that is not blank. */
export const RequiredText = StoredText.pipe(
  Schema.filter((s) => s.trim() !== "", { message: () => "must not be empty" })
)

/** A text identifier (such as `sku_id`): not blank, at most 64 characters. */
export const TextId = RequiredText.pipe(
  Schema.filter((s) => s.length <= 64, { message: () => "must be at most 64 characters" })
)

const EmptyAsNull = Schema.transform(Schema.NullOr(StoredText), Schema.NullOr(Schema.String), {
  strict: true,
  decode: (s) => (s === "" ? null : s),
  encode: (s) => s
})

/** An optional text on write: absent, `null` and `""` all mean none (stored and shown as `null`). */
export const OptionalMasterText = Schema.optionalWith(EmptyAsNull, { default: () => null })

/** How a looked-up row is held until the transaction ends: against changes, or against any write. */
export type RowLock = "none" | "share" | "update"

/** The optional `client_id` of a write body that names the owning client. */
export const OptionalClientId = Schema.optionalWith(
  Schema.NullOr(ClientId),
  { default: () => null }
)

/** The 400 of a `client_id` in a body that would move a record to another owner. */
export const clientUnchangeable = (what: string, current: string | null) =>
  invalidField("client_id", current === null ? `${what} belongs to the site` : `${what} belongs to client ${current}`)

/** A record as the store keeps it: the public record and who owns it. */
export interface Stored<A> {
  readonly owner: Owner
  readonly record: A
}
