/**
 * The store port of idempotency keys: each caller's keys with the request and answer they hold.
 */
import { Context, type Effect, type Option } from "effect"
import type { UserId } from "../shared/Ids.js"
import type { IdempotencyClaim, KeptAnswer, KeptRequest } from "./Idempotency.js"

export class IdempotencyRepository extends Context.Tag("@wms/core/IdempotencyRepository")<IdempotencyRepository, {
  /**
   * In the current transaction, takes the caller's key for the request: none when it is taken
   * (also when it was last used before `expiredBefore`, UTC ISO text), else what the key holds. A
   * key that another open transaction took is waited for until that transaction ends, so that of
   * two requests with one key only one runs, and the other sees its answer.
   */
  readonly claim: (claim: IdempotencyClaim, expiredBefore: string) => Effect.Effect<Option.Option<KeptRequest>>
  /** Keeps the answer of the request that took the key, in the transaction that took it. */
  readonly keep: (userId: UserId, key: string, answer: KeptAnswer) => Effect.Effect<void>
  /** Forgets every key used before `before` (UTC ISO text). */
  readonly forgetBefore: (before: string) => Effect.Effect<void>
}>() {}
