/**
 * Users: who may log in, and where they may act.
 */
import { Schema } from "effect"
import { ClientId, SiteId, UserId } from "../shared/Ids.js"

/** A user as the API shows it; the password hash never leaves the store. */
export class User extends Schema.Class<User>("User")({
  userId: UserId,
  email: Schema.String,
  name: Schema.String,
  admin: Schema.Boolean,
  site: SiteId,
  client: Schema.NullOr(ClientId),
  /** A disabled user cannot log in, and its tokens are refused. */
  active: Schema.Boolean
}) {}

/** A user with the salted hash of its password, as the store keeps it. */
export interface UserWithCredentials {
  readonly user: User
  readonly passwordHash: string
  /** Raised by every change of the user: a token issued at an older version is refused. */
  readonly tokenVersion: number
}

// Surrounding spaces are dropped, not refused: they are never part of an address. At most 254
// characters (RFC 5321), which also keeps it within what PostgreSQL's unique index can hold.
const Email = Schema.Trim.pipe(
  Schema.pattern(/^[^\s@]+@[^\s@]+$/, { message: () => "must be an e-mail address" }),
  Schema.maxLength(254, { message: () => "must be at most 254 characters" })
)

const Password = Schema.String.pipe(Schema.minLength(8, { message: () => "must be at least 8 characters" }))
const Name = Schema.String.pipe(Schema.minLength(1))

/** The body of `POST /users`. */
export const NewUser = Schema.Struct({
  email: Email,
  password: Password,
  name: Name,
  admin: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  site: SiteId,
  client: Schema.optionalWith(Schema.NullOr(ClientId), { default: () => null })
})
export type NewUser = typeof NewUser.Type

/** The body of `PUT /users/:userId`: only the fields present change; `client: null` clears it. */
export const UserChanges = Schema.Struct({
  email: Schema.optional(Email),
  password: Schema.optional(Password),
  name: Schema.optional(Name),
  admin: Schema.optional(Schema.Boolean),
  site: Schema.optional(SiteId),
  client: Schema.optional(Schema.NullOr(ClientId)),
  active: Schema.optional(Schema.Boolean)
})
export type UserChanges = typeof UserChanges.Type

/** The body of `POST /users/me/password`. */
export const PasswordChange = Schema.Struct({
  current_password: Schema.String,
  new_password: Password
})
export type PasswordChange = typeof PasswordChange.Type

/** E-mail addresses are compared without regard to case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()
