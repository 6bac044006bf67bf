/**
 * Property testing of a warehouse, for the engine's own tests and for its users' suites
 * (`@wms/core/testing`): fast-check arbitraries of valid warehouse states and of operation
 * sequences, the code that plays them on the services (`play`), and the invariant checkers.
 *
 * The arbitraries are built with the fast-check that `effect` bundles (`FastCheck`), so a suite
 * needs no second copy: `import { FastCheck as fc } from "effect"`.
 *
 * ```ts
 * fc.assert(fc.asyncProperty(arbWarehouse(), arbOps(), async (state, ops) => {
 *   const { violations } = await wms.run(Effect.flatMap(systemActor(site), (actor) => play(actor, state, ops)))
 *   assert.deepStrictEqual(violations, [])
 * }))
 * ```
 *
 * Every operation refers to records by position (taken modulo what exists when it runs), so any
 * sequence applies to any state; a refusal the rules call for (a 400, 404 or 409) is an outcome,
 * not a failure.
 *
 * For tests of a service on its own, the ports can be stubbed: `makeTestLayer(Port)(methods, log)`
 * provides the given methods (any other dies naming itself), a `CallLog` records the calls in
 * order, and `testTransactor` and `makeTestEventPublisher` stand in for a store's transactions and
 * outbox.
 *
 * ```ts
 * const log = new CallLog()
 * const orders = Orders.Default.pipe(Layer.provide([
 *   makeTestLayer(OrderRepository)({ find: () => Effect.succeed(Option.none()) }, log),
 *   makeTestLayer(OrderAllocations)({}),
 *   testTransactor(log)
 * ]))
 * ```
 */
// First: the version of effect is checked before the other modules run.
import "./shared/EffectVersion.js"
import type { Context } from "effect"
import { Clock, Effect, Exit, FastCheck as fc, Layer, Option } from "effect"
import { decodeInput } from "./admin/Embedding.js"
import { NewSku } from "./masterdata/Sku.js"
import { Skus } from "./masterdata/Skus.js"
import { NewOrder } from "./orders/Order.js"
import { Orders } from "./orders/Orders.js"
import { Picking } from "./picking/Picking.js"
import { NewPreAdvice } from "./receiving/PreAdvice.js"
import { PreAdvices } from "./receiving/PreAdvices.js"
import { Receiving } from "./receiving/Receiving.js"
import type { WarehouseError } from "./shared/Errors.js"
import { EventPublisher, type WarehouseEvent } from "./shared/Events.js"
import { formatDate, TimeZone } from "./shared/Formats.js"
import type { Actor } from "./shared/Tenancy.js"
import { Transactor } from "./shared/Transactor.js"
import { addDays, AdjustmentRequest, Inventory } from "./stock/Inventory.js"
import { available, isValid, replayQuantities, type TransactionType } from "./stock/Stock.js"
import { compareStock } from "./waves/Allocation.js"
import { WaveDefinitionInput } from "./waves/WaveDefinition.js"
import { WaveDefinitions } from "./waves/WaveDefinitions.js"
import { Waves } from "./waves/Waves.js"

/** A SKU of a generated warehouse; `expiry_days` set means an expiry SKU. */
export interface SkuSeed {
  readonly sku_id: string
  readonly expiry_days: number | null
}

/** Stock of a generated warehouse; `expiry_in_days` (from today, negative: expired) only on expiry SKUs. */
export interface ContentSeed {
  readonly sku_id: string
  readonly loc_id: string
  readonly qty: number
  readonly expiry_in_days: number | null
}

/** An order of a generated warehouse. */
export interface OrderSeed {
  readonly order_id: string
  readonly ship_by_in_days: number | null
  readonly lines: ReadonlyArray<{ readonly sku_id: string; readonly qty: number }>
}

/** A valid warehouse: SKUs, stock of those SKUs (with and without expiry) and orders with lines. */
export interface WarehouseState {
  readonly skus: ReadonlyArray<SkuSeed>
  readonly contents: ReadonlyArray<ContentSeed>
  readonly orders: ReadonlyArray<OrderSeed>
}

/** Bounds of `arbWarehouse`. */
export interface ArbWarehouseOptions {
  readonly maxSkus?: number
  readonly maxContents?: number
  readonly maxOrders?: number
  readonly maxLines?: number
  readonly maxQty?: number
}

/** Valid warehouse states: at least one SKU, stock and orders only of those SKUs. */
export const arbWarehouse = (options: ArbWarehouseOptions = {}): fc.Arbitrary<WarehouseState> => {
  const maxQty = options.maxQty ?? 20
  return fc.uniqueArray(
    fc.record({
      sku_id: fc.stringMatching(/^[A-Z][A-Z0-9]{0,5}$/),
      expiry_days: fc.option(fc.integer({ min: 1, max: 60 }), { nil: null })
    }),
    { minLength: 1, maxLength: options.maxSkus ?? 4, selector: (sku) => sku.sku_id }
  ).chain((skus) => {
    const sku = fc.constantFrom(...skus)
    const content = sku.chain((s) =>
      fc.record({
        sku_id: fc.constant(s.sku_id),
        loc_id: fc.constantFrom("A-01", "A-02", "B-01"),
        qty: fc.integer({ min: 1, max: maxQty }),
        expiry_in_days: s.expiry_days === null ? fc.constant(null) : fc.option(fc.integer({ min: -3, max: 30 }), {
          nil: null
        })
      })
    )
    const line = fc.record({ sku_id: sku.map((s) => s.sku_id), qty: fc.integer({ min: 1, max: maxQty }) })
    const orders = fc.uniqueArray(
      fc.record({
        order_id: fc.stringMatching(/^SO-[0-9]{1,4}$/),
        ship_by_in_days: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }),
        lines: fc.array(line, { minLength: 1, maxLength: options.maxLines ?? 3 })
      }),
      { maxLength: options.maxOrders ?? 5, selector: (order) => order.order_id }
    )
    return fc.record({
      skus: fc.constant(skus),
      contents: fc.array(content, { maxLength: options.maxContents ?? 8 }),
      orders
    })
  })
}

/**
 * One operation. Positions (`sku`, `content`, `wave`, `task`) pick among what exists when it runs,
 * modulo its count, in the order the engine lists it.
 */
export type Op =
  /** A pre-advice of one line, received in full: new stock. */
  | { readonly _tag: "Receive"; readonly sku: number; readonly qty: number; readonly expiry_in_days: number | null }
  /** A stock adjustment of an existing content by `qty` (negative: stock taken off). */
  | { readonly _tag: "Adjust"; readonly content: number; readonly qty: number }
  /** A new order of one line. */
  | { readonly _tag: "AddOrder"; readonly sku: number; readonly qty: number }
  /** A wave of every Released order that is in no other wave. */
  | { readonly _tag: "CreateWave" }
  | { readonly _tag: "StartWave"; readonly wave: number }
  | { readonly _tag: "DeleteWave"; readonly wave: number }
  /** A pick: the whole task, or `picked` units of it modulo its quantity + 1 (a short pick). */
  | { readonly _tag: "ConfirmTask"; readonly task: number; readonly picked: number | null }
  /** Ships an order: refused unless something of it was picked. */
  | { readonly _tag: "Ship"; readonly order: number }

/** Bounds of `arbOps`. */
export interface ArbOpsOptions {
  readonly maxLength?: number
  readonly maxQty?: number
}

/**
 * Sequences of operations: receipts and adjustments, new orders, waves created, started and
 * deleted, picks confirmed in full or short, and orders shipped.
 */
export const arbOps = (options: ArbOpsOptions = {}): fc.Arbitrary<ReadonlyArray<Op>> => {
  const maxQty = options.maxQty ?? 20
  const qty = fc.integer({ min: 1, max: maxQty })
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      _tag: fc.constant("Receive" as const),
      sku: fc.nat(),
      qty,
      expiry_in_days: fc.option(fc.integer({ min: -3, max: 30 }), { nil: null })
    }),
    fc.record({
      _tag: fc.constant("Adjust" as const),
      content: fc.nat(),
      qty: fc.integer({ min: -maxQty, max: maxQty }).filter((n) => n !== 0)
    }),
    fc.record({ _tag: fc.constant("AddOrder" as const), sku: fc.nat(), qty }),
    fc.record({ _tag: fc.constant("CreateWave" as const) }),
    fc.record({ _tag: fc.constant("StartWave" as const), wave: fc.nat() }),
    fc.record({ _tag: fc.constant("DeleteWave" as const), wave: fc.nat() }),
    fc.record({
      _tag: fc.constant("ConfirmTask" as const),
      task: fc.nat(),
      picked: fc.option(fc.nat(maxQty), { nil: null })
    }),
    fc.record({ _tag: fc.constant("Ship" as const), order: fc.nat() })
  )
  return fc.array(op, { maxLength: options.maxLength ?? 12 })
}

/** What a played operation did: done, refused by a rule (with the error), or nothing to act on. */
export type Outcome =
  | { readonly _tag: "Done" }
  | { readonly _tag: "Refused"; readonly error: WarehouseError }
  | { readonly _tag: "Skipped" }

/** A content as the inventory overview shows it: what the checkers read. */
export interface ContentView {
  readonly content_id: number
  readonly sku_id: string
  readonly client_id: string | null
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
  readonly expiry_date: string | null
  readonly created_datetime: string
}

/** A ledger transaction as `GET /inventory/transactions` shows it. */
export interface TransactionView {
  readonly content_id: number
  /** The source of a movement (Putaway, Move, Replenish); absent or null on the other types. */
  readonly from_content_id?: number | null
  readonly transaction_type: TransactionType
  readonly qty: number
}

/** A claim as `GET /waves/:id/claims` shows it. */
export interface ClaimView {
  readonly content_id: number
  readonly qty: number
  readonly status: string
}

/** Stock never negative nor over-allocated: `0 ≤ qty_allocated + qty_tasked_from ≤ qty` for every content. */
export const checkStock = (contents: ReadonlyArray<ContentView>): ReadonlyArray<string> =>
  contents.filter((c) => !isValid(c) || c.qty < 0).map((c) =>
    `content ${c.content_id}: qty ${c.qty}, allocated ${c.qty_allocated}, tasked ${c.qty_tasked_from}`
  )

/** The ledger replays to the stock: the transactions of each content add up to its `qty`. */
export const checkLedger = (
  contents: ReadonlyArray<ContentView>,
  transactions: ReadonlyArray<TransactionView>
): ReadonlyArray<string> => {
  const replayed = replayQuantities(transactions)
  return contents.filter((c) => (replayed.get(c.content_id) ?? 0) !== c.qty).map((c) =>
    `content ${c.content_id}: qty ${c.qty}, ledger replays to ${replayed.get(c.content_id) ?? 0}`
  )
}

/** Every allocated unit is claimed: a content's `qty_allocated` is the sum of its open claims. */
export const checkClaims = (
  contents: ReadonlyArray<ContentView>,
  claims: ReadonlyArray<ClaimView>
): ReadonlyArray<string> => {
  const claimed = new Map<number, number>()
  for (const claim of claims) {
    if (claim.status === "allocated") claimed.set(claim.content_id, (claimed.get(claim.content_id) ?? 0) + claim.qty)
  }
  return contents.filter((c) => (claimed.get(c.content_id) ?? 0) !== c.qty_allocated).map((c) =>
    `content ${c.content_id}: qty_allocated ${c.qty_allocated}, open claims ${claimed.get(c.content_id) ?? 0}`
  )
}

const asStock = (c: ContentView) => ({
  ...c,
  loc_id: "",
  tag_id: "",
  created_at: c.created_datetime
})

/**
 * First expiry first out, checked right after a wave start: for every content the start claimed,
 * each unexpired content of the same SKU and client that comes first (earlier expiry, no expiry
 * last, then older, then lower id) has nothing available left.
 */
export const checkFefo = (
  contents: ReadonlyArray<ContentView>,
  claimed: ReadonlyArray<ClaimView>,
  today: string
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const contentId of new Set(claimed.map((claim) => claim.content_id))) {
    const taken = contents.find((c) => c.content_id === contentId)
    if (taken === undefined) continue
    for (const other of contents) {
      if (other.sku_id !== taken.sku_id || other.client_id !== taken.client_id) continue
      if (other.expiry_date !== null && other.expiry_date < today) continue
      if (compareStock(asStock(other), asStock(taken)) < 0 && available(other) > 0) {
        violations.push(`content ${contentId} was claimed while content ${other.content_id} comes first and has stock`)
      }
    }
  }
  return violations
}

/** The stock, ledger and claims of a scope, as its API shows them. */
export const snapshot = (actor: Actor) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    const waves = yield* Waves
    const contents = yield* inventory.overview(actor)
    const transactions = yield* inventory.transactions(actor)
    const claims = yield* Effect.flatMap(
      waves.list(actor),
      Effect.forEach((wave) => Effect.orDie(waves.claims(actor, wave.id)))
    )
    return { contents, transactions, claims: claims.flat() }
  })

/** Every invariant violation of a snapshot: stock, ledger and claims. */
export const checkInvariants = (
  state: {
    readonly contents: ReadonlyArray<ContentView>
    readonly transactions: ReadonlyArray<TransactionView>
    readonly claims: ReadonlyArray<ClaimView>
  }
): ReadonlyArray<string> => [
  ...checkStock(state.contents),
  ...checkLedger(state.contents, state.transactions),
  ...checkClaims(state.contents, state.claims)
]

const today = Effect.zipWith(Clock.currentTimeMillis, TimeZone, (now, zone) => formatDate(now, zone))

const refusable = <A, R>(effect: Effect.Effect<A, WarehouseError, R>): Effect.Effect<Outcome, never, R> =>
  Effect.match(effect, {
    onFailure: (error): Outcome => ({ _tag: "Refused", error }),
    onSuccess: (): Outcome => ({ _tag: "Done" })
  })

const pick = <A>(items: ReadonlyArray<A>, position: number): Option.Option<A> =>
  items.length === 0 ? Option.none() : Option.some(items[position % items.length])

// Ids made here start with the run's own prefix, so runs sharing one scope never collide.
const runId = Effect.sync(() => globalThis.crypto.randomUUID().slice(0, 8))

/** The world a sequence plays in: its actor, its wave definition and its SKUs. */
export interface World {
  readonly actor: Actor
  readonly prefix: string
  readonly definitionId: number
  readonly skus: ReadonlyArray<string>
}

/**
 * Writes a generated warehouse through the services, as `actor`: the SKUs (upserted), the stock
 * (as adjustments), the orders, and a wave definition that takes every order ("Alles", per order).
 */
export const seed = (actor: Actor, state: WarehouseState) =>
  Effect.gen(function*() {
    const skus = yield* Skus
    const inventory = yield* Inventory
    const orders = yield* Orders
    const definitions = yield* WaveDefinitions
    const prefix = yield* runId
    const date = yield* today
    for (const sku of state.skus) {
      yield* skus.upsert(
        actor,
        sku.sku_id,
        yield* decodeInput(NewSku, {
          sku_id: sku.sku_id,
          description: `Article ${sku.sku_id}`,
          expiry_sku: sku.expiry_days !== null,
          expiry_days: sku.expiry_days
        })
      )
    }
    for (const content of state.contents) {
      yield* inventory.adjust(
        actor,
        yield* decodeInput(AdjustmentRequest, {
          sku_id: content.sku_id,
          loc_id: content.loc_id,
          expiry_date: content.expiry_in_days === null ? null : addDays(date, content.expiry_in_days),
          qty: content.qty
        })
      )
    }
    for (const order of state.orders) {
      yield* orders.create(
        actor,
        yield* decodeInput(NewOrder, {
          order_id: `${prefix}-${order.order_id}`,
          ship_by_date: order.ship_by_in_days === null ? null : addDays(date, order.ship_by_in_days),
          lines: order.lines
        })
      )
    }
    const definitionId = yield* definitions.create(
      actor,
      yield* decodeInput(WaveDefinitionInput, {
        description: `All orders ${prefix}`,
        criterium_id: 5,
        pick_type: 1
      })
    )
    return { actor, prefix, definitionId, skus: state.skus.map((sku) => sku.sku_id) } satisfies World
  })

/** Plays one operation; the outcome says whether the rules let it through. */
export const applyOp = (world: World, op: Op) =>
  Effect.gen(function*() {
    const { actor } = world
    const skipped: Outcome = { _tag: "Skipped" }
    switch (op._tag) {
      case "Receive": {
        const sku = pick(world.skus, op.sku)
        if (Option.isNone(sku)) return skipped
        const preAdvices = yield* PreAdvices
        const receiving = yield* Receiving
        const id = `${world.prefix}-PA-${globalThis.crypto.randomUUID().slice(0, 8)}`
        const date = yield* today
        return yield* refusable(Effect.gen(function*() {
          yield* preAdvices.create(
            actor,
            yield* decodeInput(NewPreAdvice, {
              pre_advice_id: id,
              lines: [{ sku_id: sku.value, qty: op.qty }]
            })
          )
          const expiry = op.expiry_in_days === null ? null : addDays(date, op.expiry_in_days)
          yield* receiving.receive(actor, id, {
            lines: [{ line: 1, qty: op.qty, loc_id: null, tag_id: null, expiry_date: expiry }],
            putaway: null
          })
        }))
      }
      case "Adjust": {
        const inventory = yield* Inventory
        const content = pick(yield* inventory.overview(actor), op.content)
        if (Option.isNone(content)) return skipped
        return yield* refusable(Effect.flatMap(
          decodeInput(AdjustmentRequest, { content_id: content.value.content_id, qty: op.qty }),
          (request) => inventory.adjust(actor, request)
        ))
      }
      case "AddOrder": {
        const sku = pick(world.skus, op.sku)
        if (Option.isNone(sku)) return skipped
        const orders = yield* Orders
        const id = `${world.prefix}-SO-${globalThis.crypto.randomUUID().slice(0, 8)}`
        return yield* refusable(Effect.flatMap(
          decodeInput(NewOrder, { order_id: id, lines: [{ sku_id: sku.value, qty: op.qty }] }),
          (order) => orders.create(actor, order)
        ))
      }
      case "CreateWave": {
        const waves = yield* Waves
        return yield* refusable(waves.create(actor, world.definitionId))
      }
      case "StartWave":
      case "DeleteWave": {
        const waves = yield* Waves
        const wave = pick(yield* waves.list(actor), op.wave)
        if (Option.isNone(wave)) return skipped
        return yield* refusable(
          op._tag === "StartWave" ? waves.start(actor, wave.value.id) : waves.remove(actor, wave.value.id)
        )
      }
      case "ConfirmTask": {
        const picking = yield* Picking
        const task = pick(yield* picking.tasks(actor, {}), op.task)
        if (Option.isNone(task)) return skipped
        const qty = op.picked === null ? null : op.picked % (task.value.quantity + 1)
        return yield* refusable(picking.confirm(actor, task.value.id, { qty }))
      }
      case "Ship": {
        const orders = yield* Orders
        const picking = yield* Picking
        const order = pick(yield* orders.list(actor, { lines: false }), op.order)
        if (Option.isNone(order)) return skipped
        return yield* refusable(picking.ship(actor, order.value.order_id))
      }
    }
  })

/**
 * Seeds the state, plays the operations, and checks the invariants after each one (and FEFO
 * after each wave start). `violations` is empty when every invariant held throughout.
 */
export const play = (actor: Actor, state: WarehouseState, ops: ReadonlyArray<Op>) =>
  Effect.gen(function*() {
    const world = yield* seed(actor, state)
    const waves = yield* Waves
    const outcomes: Array<Outcome> = []
    const violations: Array<string> = [...checkInvariants(yield* snapshot(actor))]
    for (const [index, op] of ops.entries()) {
      const outcome = yield* applyOp(world, op)
      outcomes.push(outcome)
      const after = yield* snapshot(actor)
      const found = [...checkInvariants(after)]
      if (op._tag === "StartWave" && outcome._tag === "Done") {
        const started = pick(yield* waves.list(actor), op.wave)
        if (Option.isSome(started)) {
          const claims = yield* Effect.orDie(waves.claims(actor, started.value.id))
          found.push(...checkFefo(after.contents, claims, yield* today))
        }
      }
      violations.push(...found.map((violation) => `after op ${index} (${op._tag}): ${violation}`))
    }
    return { world, outcomes, violations }
  })

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
