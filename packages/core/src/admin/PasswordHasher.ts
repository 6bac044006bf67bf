/**
 * The password hashing port: a salted, slow hash, so that the core stays free of crypto I/O.
 */
import { Context, type Effect } from "effect"

export class PasswordHasher extends Context.Tag("@wms/core/PasswordHasher")<PasswordHasher, {
  readonly hash: (password: string) => Effect.Effect<string>
  readonly verify: (password: string, hash: string) => Effect.Effect<boolean>
  /** Whether a stored hash is weaker than what `hash` makes now: it is replaced at the next login. */
  readonly needsRehash: (hash: string) => boolean
}>() {}
