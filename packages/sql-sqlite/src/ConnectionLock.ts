/**
 * The store's one connection, held by one fiber at a time: by a transaction from its `BEGIN` to its
 * end, and by a statement that must not see another fiber's transaction half done. Taken in one
 * step when free, which on SQLite is nearly always (a write's statements run to their `COMMIT`
 * synchronously), where `Effect.Semaphore` takes several on every write: an asynchronous wait that
 * resumes itself, under an interrupt handler, then a permit count updated through the fiber.
 */
import { Effect } from "effect"

export interface ConnectionLock {
  /** Whether a fiber holds the lock. */
  readonly held: () => boolean
  /** Takes the lock if it is free, answering whether it did. */
  readonly tryTake: () => boolean
  /** Takes the lock, waiting while another holds it; the wait can be interrupted. */
  readonly take: Effect.Effect<void>
  /** Gives the lock back: every waiter tries again, so one interrupted meanwhile strands none. */
  readonly release: () => void
  /** Runs `effect` holding the lock, and gives it back however `effect` ends. */
  readonly withLock: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export const make = (): ConnectionLock => {
  let held = false
  const waiters = new Set<() => void>()
  const tryTake = () => {
    if (held) return false
    held = true
    return true
  }
  const take: Effect.Effect<void> = Effect.suspend(() =>
    tryTake() ? Effect.void : Effect.async<void>((resume) => {
      const wake = () => {
        waiters.delete(wake)
        resume(take)
      }
      waiters.add(wake)
      return Effect.sync(() => {
        waiters.delete(wake)
      })
    })
  )
  const release = () => {
    held = false
    for (const wake of [...waiters]) wake()
  }
  const released = Effect.sync(release)
  return {
    held: () => held,
    tryTake,
    take,
    release,
    withLock: (effect) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(
          tryTake() ? Effect.void : restore(take),
          Effect.ensuring(restore(effect), released)
        )
      )
  }
}
