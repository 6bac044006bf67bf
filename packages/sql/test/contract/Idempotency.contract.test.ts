/**
 * The contract of `IdempotencyRepository` on both stores: a key's request and answer are kept per
 * caller, taken anew once expired, and forgotten when old.
 */
import { assert, describe } from "@effect/vitest"
import { IdempotencyRepository, Transactor, UserId } from "@wms/core"
import { Effect, Option } from "effect"
import { fresh, onEachStore } from "./Contract.js"

onEachStore("idempotency keys", (it) => {
  describe("IdempotencyRepository", () => {
    it.effect("keeps a key's request and answer per caller, taken anew once expired, forgotten when old", () =>
      Effect.gen(function*() {
        const repo = yield* IdempotencyRepository
        const { atomically } = yield* Transactor
        const [alice, bob] = [UserId.make(fresh("alice")), UserId.make(fresh("bob"))]
        const at = (hour: number) => `2030-01-01T${String(hour).padStart(2, "0")}:00:00.000Z`
        const claim = (userId: UserId, requestHash: string, hour: number) =>
          repo.claim({ userId, key: "k-1", requestHash, claimedAt: at(hour) }, at(hour - 1))
        const answer = {
          status: 201,
          headers: { "content-type": "application/json", location: "/x/1" },
          body: "{\"id\":1}"
        }
        yield* atomically(Effect.gen(function*() {
          assert.isTrue(Option.isNone(yield* claim(alice, "h1", 10)))
          yield* repo.keep(alice, "k-1", answer)
        }))
        assert.deepStrictEqual(yield* atomically(claim(alice, "h2", 10)), Option.some({ requestHash: "h1", answer }))
        assert.isTrue(Option.isNone(yield* atomically(claim(bob, "h1", 10))))
        yield* atomically(repo.keep(bob, "k-1", { status: 204, headers: {}, body: null }))
        // Used at 10:00, the key has expired for a claim that counts from after 10:00.
        assert.isTrue(Option.isNone(yield* atomically(claim(alice, "h3", 12))))
        yield* atomically(repo.keep(alice, "k-1", answer))
        yield* atomically(repo.forgetBefore(at(11)))
        assert.isTrue(Option.isNone(yield* atomically(claim(bob, "h1", 10))))
        const kept = yield* atomically(claim(alice, "h4", 12))
        assert.strictEqual(Option.getOrThrow(kept).requestHash, "h3")
      }))
  })
})
