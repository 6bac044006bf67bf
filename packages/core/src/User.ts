/**
 * Users: who may log in, and where they may act.
 */
import { Schema } from "effect"
import { ClientId, SiteId, UserId } from "./Ids.js"

/** A user as the API shows it; the password hash never leaves the store. */
export class User extends Schema.Class<User>("User")({
  userId: UserId,
  email: Schema.String,
  name: Schema.String,
  admin: Schema.Boolean,
  site: SiteId,
  client: Schema.NullOr(ClientId)
}) {}

/** A user with the salted hash of its password, as the store keeps it. */
export interface UserWithCredentials {
  readonly user: User
  readonly passwordHash: string
}

// Surrounding spaces are dropped, not refused: they are never part of an address.
const Email = Schema.Trim.pipe(
  Schema.pattern(/^[^\s@]+@[^\s@]+$/, { message: () => "must be an e-mail address" })
)

/** The body of `POST /users`. */
export const NewUser = Schema.Struct({
  email: Email,
  password: Schema.String.pipe(Schema.minLength(8, { message: () => "must be at least 8 characters" })),
  name: Schema.String.pipe(Schema.minLength(1)),
  admin: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  site: SiteId,
  client: Schema.optionalWith(Schema.NullOr(ClientId), { default: () => null })
})
export type NewUser = typeof NewUser.Type

/** E-mail addresses are compared without regard to case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()
