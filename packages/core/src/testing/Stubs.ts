/**
 * Stubbed ports for tests of a service on its own: a layer of any port or service that provides
 * only the methods a test gives, a log of the calls made, and stand-ins for a store's transactions
 * and outbox.
 */
import type { Context } from "effect"
import { Effect, Exit, Layer } from "effect"
import { EventPublisher, type WarehouseEvent } from "../shared/Events.js"
import { Transactor } from "../shared/Transactor.js"

/** A call of a stubbed method: `Port.method` and its arguments. */
export interface StubCall {
  readonly method: string
  readonly args: ReadonlyArray<unknown>
}

/**
 * The calls made to stubbed ports, in the order they were made: what a service test asserts on
 * when a rule says which calls are made with what. One log shared by every stub of a test orders
 * the calls across ports.
 */
export class CallLog {
  readonly calls: Array<StubCall> = []

  /** Adds a call. */
  record(method: string, args: ReadonlyArray<unknown> = []): void {
    this.calls.push({ method, args })
  }

  /** `Port.method` of every call, in order. */
  get methods(): ReadonlyArray<string> {
    return this.calls.map((call) => call.method)
  }

  /** The arguments of every call of `method` (`Port.method`), in order. */
  argsOf(method: string): ReadonlyArray<ReadonlyArray<unknown>> {
    return this.calls.filter((call) => call.method === method).map((call) => call.args)
  }
}

// `OrderRepository` of `@wms/core/OrderRepository`: the name calls and missing methods go by.
const portName = (key: string) => key.slice(key.lastIndexOf("/") + 1)

// Callable, for a method, and itself an Effect, for a port property that is one (`listSites`).
const unimplemented = (method: string) => {
  const dead = Effect.dieMessage(`${method} is not implemented by this test layer`)
  return Object.setPrototypeOf(Object.assign(() => dead, dead), Object.getPrototypeOf(dead))
}

/**
 * A layer of `tag` for service tests, after Effect-TS/examples: the methods given, and any other
 * dies naming itself (`OrderRepository.lock is not implemented by this test layer`), so a test
 * states only what its rule uses. With a `log`, every call of a given method is recorded when it
 * is made. Works for ports and for `Effect.Service`s alike.
 */
export const makeTestLayer =
  <I, S extends object>(tag: Context.Tag<I, S>) => (methods: Partial<S>, log?: CallLog): Layer.Layer<I> => {
    const port = portName(tag.key)
    const target: Record<string | symbol, unknown> = {}
    for (const [name, member] of Object.entries(methods)) {
      target[name] = log !== undefined && typeof member === "function"
        ? (...args: Array<unknown>) => {
          log.record(`${port}.${name}`, args)
          return member(...args)
        }
        : member
    }
    const service = new Proxy(target, {
      get: (members, name) =>
        name in members || typeof name === "symbol"
          ? members[name]
          : (members[name] = unimplemented(`${port}.${name}`)),
      has: () => true
    })
    return Layer.succeed(tag, service as S)
  }

/**
 * A `Transactor` for service tests: it runs the effect as it is. With a `log`, each transaction
 * shows as `Transactor.begin`, then `Transactor.commit`, or `Transactor.rollback` when the effect
 * fails, dies or is interrupted: where a store would have kept or undone the writes between.
 */
export const testTransactor = (log?: CallLog): Layer.Layer<Transactor> =>
  Layer.succeed(Transactor, {
    atomically: (effect) =>
      log === undefined ? effect : Effect.suspend(() => {
        log.record("Transactor.begin")
        return Effect.onExit(
          effect,
          (exit) => Effect.sync(() => log.record(Exit.isSuccess(exit) ? "Transactor.commit" : "Transactor.rollback"))
        )
      })
  })

/** An in-memory `EventPublisher` for service tests: `published` holds every event, in order. */
export const makeTestEventPublisher = () => {
  const published: Array<WarehouseEvent> = []
  const layer = Layer.succeed(EventPublisher, {
    publish: (event) => Effect.sync(() => void published.push(event)),
    publishAll: (events) => Effect.sync(() => void published.push(...events))
  })
  return { published: published as ReadonlyArray<WarehouseEvent>, layer }
}
