/**
 * The lock on the SQLite store's one connection: one holder at a time, a wait that can be
 * interrupted without stranding the waiters behind it, and a release however the holder ends.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import * as ConnectionLock from "../src/ConnectionLock.js"

describe("ConnectionLock", () => {
  it.effect("lets one holder in at a time, and the waiters in once it is given back", () =>
    Effect.gen(function*() {
      const lock = ConnectionLock.make()
      assert.isTrue(lock.tryTake())
      assert.isFalse(lock.tryTake())
      const entered: Array<string> = []
      const first = yield* Effect.fork(lock.withLock(Effect.sync(() => entered.push("first"))))
      const second = yield* Effect.fork(lock.withLock(Effect.sync(() => entered.push("second"))))
      yield* Effect.yieldNow()
      assert.deepStrictEqual(entered, [])
      lock.release()
      yield* Fiber.join(first)
      yield* Fiber.join(second)
      assert.deepStrictEqual([...entered].sort(), ["first", "second"])
      assert.isFalse(lock.held())
    }))

  it.effect("strands no waiter when another is interrupted, and is given back after a failure", () =>
    Effect.gen(function*() {
      const lock = ConnectionLock.make()
      lock.tryTake()
      const interrupted = yield* Effect.fork(lock.take)
      const waiting = yield* Effect.fork(lock.withLock(Effect.fail("refused")))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(interrupted)
      lock.release()
      assert.isTrue(Exit.isFailure(yield* Fiber.await(waiting)))
      assert.isFalse(lock.held())
      assert.isTrue(lock.tryTake())
    }))
})
