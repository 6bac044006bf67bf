/**
 * The transaction port: lets the domain say "atomically" without knowing the store.
 */
import { Context, type Effect } from "effect"

export class Transactor extends Context.Tag("@wms/core/Transactor")<Transactor, {
  /** Runs `effect` in one store transaction: every change commits together or none does. */
  readonly atomically: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
