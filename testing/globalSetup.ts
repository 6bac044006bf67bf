/**
 * Once per test run, before any test: the PostgreSQL test databases an earlier, interrupted run
 * left behind are dropped (`dropStaleDatabases`). Without PostgreSQL nothing is dropped; the tests
 * that need it say so themselves.
 */
import { Effect } from "effect"
import { dropStaleDatabases } from "./databases.js"

export default async function setup() {
  await Effect.runPromise(
    dropStaleDatabases.pipe(Effect.timeout("10 seconds"), Effect.catchAllCause(() => Effect.void))
  )
}
