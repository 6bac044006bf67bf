/**
 * The store port for users.
 */
import { Context, type Effect, type Option } from "effect"
import type { SiteId, UserId } from "../shared/Ids.js"
import type { User, UserWithCredentials } from "./User.js"

export class UserRepository extends Context.Tag("@wms/core/UserRepository")<UserRepository, {
  /** Users of a site, or of every site when none is given. */
  readonly list: (siteId: SiteId | undefined) => Effect.Effect<ReadonlyArray<User>>
  readonly count: Effect.Effect<number>
  /** Looks a user up by its normalized e-mail address. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<UserWithCredentials>>
  readonly findById: (userId: UserId) => Effect.Effect<Option.Option<UserWithCredentials>>
  /** Inserts the user; false when its e-mail address is taken. */
  readonly insert: (user: UserWithCredentials) => Effect.Effect<boolean>
  /** Writes every field of a stored user; false when its new e-mail address is taken. */
  readonly update: (user: UserWithCredentials) => Effect.Effect<boolean>
  readonly remove: (userId: UserId) => Effect.Effect<void>
  /**
   * How many users are active admins, their rows locked until the transaction ends: the last one
   * may not be disabled, demoted or deleted, even by two changes at once.
   */
  readonly activeAdmins: Effect.Effect<number>
}>() {}
