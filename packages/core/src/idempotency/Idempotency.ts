/**
 * Idempotent requests: a client names a write with a key of its own, and a retry with the same key
 * gets the first answer instead of running the write again. A key belongs to its caller and holds
 * for a window, after which it is free again.
 */
import type { UserId } from "../shared/Ids.js"

/** How long a key holds its request and answer. */
export const idempotencyWindowMillis = 24 * 60 * 60 * 1000

/** A request's claim on a key. */
export interface IdempotencyClaim {
  readonly userId: UserId
  readonly key: string
  /** What the request is: a retry of it has the same. */
  readonly requestHash: string
  /** When the request came, as UTC ISO text. */
  readonly claimedAt: string
}

/** The answer the request that used a key was given. */
export interface KeptAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The body's text; null for an answer without a body. */
  readonly body: string | null
}

/** What a key holds: the request that used it and its answer. */
export interface KeptRequest {
  readonly requestHash: string
  readonly answer: KeptAnswer
}
