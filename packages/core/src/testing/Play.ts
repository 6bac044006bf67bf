/**
 * Playing generated warehouses and operations on the services: `seed` writes a state, `applyOp`
 * plays one operation, and `play` does both, checking the invariants after every operation.
 */
import { Clock, Effect, Option } from "effect"
import { decodeInput } from "../admin/Embedding.js"
import { SiteSettingsService } from "../admin/SiteSettingsService.js"
import { ApproveCountRequest, type CountRecord, NewCountRequest, RecordCountRequest } from "../counts/Count.js"
import { Counts } from "../counts/Counts.js"
import { Holds } from "../holds/Holds.js"
import { LocationUpdate, NewLocation } from "../locations/Location.js"
import { Locations } from "../locations/Locations.js"
import { NewSku } from "../masterdata/Sku.js"
import { Skus } from "../masterdata/Skus.js"
import { ConfirmMoveRequest, MoveAllRequest, NewMoveRequest } from "../movement/MovementTask.js"
import { MovementTasks } from "../movement/MovementTasks.js"
import { NewOrder } from "../orders/Order.js"
import { Orders } from "../orders/Orders.js"
import { Picking } from "../picking/Picking.js"
import { NewPreAdvice } from "../receiving/PreAdvice.js"
import { PreAdvices } from "../receiving/PreAdvices.js"
import { Receiving } from "../receiving/Receiving.js"
import { ReceivingRepository } from "../receiving/ReceivingRepository.js"
import { PickFaceSetting, ReplenishmentRunRequest } from "../replenishment/PickFace.js"
import { PickFaces } from "../replenishment/PickFaces.js"
import { Replenishment } from "../replenishment/Replenishment.js"
import type { WarehouseError } from "../shared/Errors.js"
import { formatDate, TimeZone } from "../shared/Formats.js"
import { UserId } from "../shared/Ids.js"
import type { Actor } from "../shared/Tenancy.js"
import { addDays, AdjustmentRequest, Inventory } from "../stock/Inventory.js"
import { available } from "../stock/Stock.js"
import { WaveDefinitionInput } from "../waves/WaveDefinition.js"
import { WaveDefinitions } from "../waves/WaveDefinitions.js"
import { Waves } from "../waves/Waves.js"
import { type CountedLine, type Op, unmanagedLocations, type WarehouseState } from "./Arbitraries.js"
import { checkBlockedAllocation, checkFefo, checkInvariants, checkUntaskedAllocation } from "./Checkers.js"
import { checkCountLedger, checkFreeze, checkThreshold } from "./Counts.js"
import { checkTrace, type LotLedgerRow } from "./Holds.js"
import {
  checkNeverOverMax,
  checkOneOpenReplenishment,
  checkReplenishmentFefo,
  newReplenishments
} from "./Replenishment.js"
import { checkDemand, checkShortPick, type LineClaimView, type ShortPickChange } from "./ShortPicks.js"
import { snapshot } from "./Snapshot.js"
import type { CycleSnapshot } from "./Views.js"

/** What a played operation did: done, refused by a rule (with the error), or nothing to act on. */
export type Outcome =
  | { readonly _tag: "Done" }
  | { readonly _tag: "Refused"; readonly error: WarehouseError }
  | { readonly _tag: "Skipped" }

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

/** The world a sequence plays in: its actor, its wave definition, its SKUs and its locations. */
export interface World {
  readonly actor: Actor
  readonly prefix: string
  readonly definitionId: number
  readonly skus: ReadonlyArray<string>
  /**
   * The location ids operations name by position: the managed ones of the state, then the
   * unmanaged ones generated stock lies at, then the site's receiving location.
   */
  readonly locations: ReadonlyArray<string>
  /** The site's receiving location: where receipts go. */
  readonly receiving: string
  /** The state's managed `PickFace` locations: what `SetPickFace` names by position. */
  readonly faces: ReadonlyArray<string>
}

/**
 * Writes a generated warehouse through the services, as `actor` (an admin, when the state has a
 * count variance threshold): the site's threshold, the locations and SKUs (upserted), the stock
 * (as adjustments), the orders, and a wave definition that takes every order ("Alles", per order).
 */
export const seed = (actor: Actor, state: WarehouseState) =>
  Effect.gen(function*() {
    const locations = yield* Locations
    const skus = yield* Skus
    const inventory = yield* Inventory
    const orders = yield* Orders
    const definitions = yield* WaveDefinitions
    const prefix = yield* runId
    const date = yield* today
    if (state.count_variance_threshold !== undefined) {
      yield* Effect.flatMap(SiteSettingsService, (settings) =>
        settings.updateSiteSettings(actor, actor.scope.site_id, {
          count_variance_threshold: state.count_variance_threshold
        }))
    }
    for (const location of state.locations ?? []) {
      const created = yield* Effect.either(locations.createLocation(actor, yield* decodeInput(NewLocation, location)))
      // A site shared between runs has it already: it gets this run's fields, as SKUs do.
      if (created._tag === "Left") {
        if (created.left._tag !== "LocationExists") {
          return yield* created.left
        }
        yield* locations.updateLocation(actor, location.loc_id, yield* decodeInput(LocationUpdate, location))
      }
    }
    for (const sku of state.skus) {
      yield* skus.updateSku(
        actor,
        sku.sku_id,
        yield* decodeInput(NewSku, {
          sku_id: sku.sku_id,
          description: `Article ${sku.sku_id}`,
          expiry_sku: sku.expiry_days !== null,
          expiry_days: sku.expiry_days,
          each_weight: sku.each_weight ?? null,
          each_volume: sku.each_volume ?? null,
          qty_on_full_pallet: sku.qty_on_full_pallet ?? null,
          preferred_putaway_location: sku.preferred_putaway_location ?? null
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
      yield* orders.createOrder(
        actor,
        yield* decodeInput(NewOrder, {
          order_id: `${prefix}-${order.order_id}`,
          ship_by_date: order.ship_by_in_days === null ? null : addDays(date, order.ship_by_in_days),
          lines: order.lines
        })
      )
    }
    const definitionId = yield* definitions.createWaveDefinition(
      actor,
      yield* decodeInput(WaveDefinitionInput, {
        description: `All orders ${prefix}`,
        criterium_id: 5,
        pick_type: 1
      })
    )
    const receiving = yield* Effect.flatMap(ReceivingRepository, (r) => r.receivingLocation(actor.scope.site_id))
    const managed = (state.locations ?? []).map((location) => location.loc_id)
    return {
      actor,
      prefix,
      definitionId,
      skus: state.skus.map((sku) => sku.sku_id),
      locations: [...new Set([...managed, ...unmanagedLocations, receiving])],
      receiving,
      faces: (state.locations ?? []).filter((location) => location.loc_type === "PickFace").map((l) => l.loc_id)
    } satisfies World
  })

/** Contents with stock at a receiving location: a managed one of type Receiving, or the site's. */
const contentsAtReceiving = (world: World) =>
  Effect.gen(function*() {
    const receiving = yield* Effect.map(
      Effect.flatMap(Locations, (locations) => locations.listLocations(world.actor, { loc_type: "Receiving" })),
      (managed) => new Set([...managed.map((l) => l.loc_id), world.receiving])
    )
    const contents = yield* Effect.flatMap(Inventory, (inventory) => inventory.overview(world.actor))
    return contents.filter((c) => receiving.has(c.loc_id))
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
          yield* preAdvices.createPreAdvice(
            actor,
            yield* decodeInput(NewPreAdvice, {
              pre_advice_id: id,
              lines: [{ sku_id: sku.value, qty: op.qty }]
            })
          )
          const expiry = op.expiry_in_days === null ? null : addDays(date, op.expiry_in_days)
          yield* receiving.receive(actor, id, {
            lines: [{ line: 1, qty: op.qty, loc_id: null, tag_id: null, expiry_date: expiry }],
            putaway: op.putaway ?? null
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
          (order) => orders.createOrder(actor, order)
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
      case "ShortPick": {
        const picking = yield* Picking
        const task = pick(yield* picking.tasks(actor, {}), op.task)
        if (Option.isNone(task)) return skipped
        return yield* refusable(picking.confirm(actor, task.value.id, {
          qty: op.picked % task.value.quantity,
          reallocate: op.reallocate,
          reason_code: op.reason_code
        }))
      }
      case "SetShortPicks": {
        const settings = yield* SiteSettingsService
        const { _tag, ...update } = op
        return yield* refusable(settings.updateSiteSettings(actor, actor.scope.site_id, update))
      }
      case "Ship": {
        const orders = yield* Orders
        const picking = yield* Picking
        const order = pick(yield* orders.listOrders(actor, { lines: false }), op.order)
        if (Option.isNone(order)) return skipped
        return yield* refusable(picking.ship(actor, order.value.order_id))
      }
      case "Putaway": {
        const content = pick(yield* contentsAtReceiving(world), op.content)
        if (Option.isNone(content)) return skipped
        const movementTasks = yield* MovementTasks
        return yield* refusable(movementTasks.createPutawayTasks(actor, { content_id: content.value.content_id }))
      }
      case "Move": {
        const content = pick(yield* Effect.flatMap(Inventory, (inventory) => inventory.overview(actor)), op.content)
        const to = pick(world.locations, op.to)
        if (Option.isNone(content) || Option.isNone(to)) return skipped
        const source = content.value
        const movable = available(source)
        const qty = op.qty % (movable + 1) === 0 ? movable + 1 : op.qty % (movable + 1)
        const movementTasks = yield* MovementTasks
        const named = op.by === "content"
          ? { content_id: source.content_id }
          : { sku_id: source.sku_id, from_loc_id: source.loc_id, tag_id: op.by === "tag" ? source.tag_id : null }
        return yield* refusable(Effect.flatMap(
          decodeInput(NewMoveRequest, { ...named, qty, to_loc_id: to.value }),
          (request) => movementTasks.createMovementTask(actor, request)
        ))
      }
      case "ConfirmMove":
      case "CancelMove": {
        const movementTasks = yield* MovementTasks
        const task = pick(yield* movementTasks.listMovementTasks(actor, {}), op.task)
        if (Option.isNone(task)) return skipped
        if (op._tag === "CancelMove") return yield* refusable(movementTasks.cancelMovementTask(actor, task.value.id))
        const to = op.to === null ? Option.none() : pick(world.locations, op.to)
        return yield* refusable(Effect.flatMap(
          decodeInput(ConfirmMoveRequest, {
            qty: op.qty === null ? null : 1 + op.qty % (task.value.quantity + 1),
            to_loc_id: Option.getOrNull(to)
          }),
          (request) => movementTasks.confirmMovementTask(actor, task.value.id, request)
        ))
      }
      case "MoveAll": {
        const from = pick(world.locations, op.from)
        const to = pick(world.locations, op.to)
        if (Option.isNone(from) || Option.isNone(to)) return skipped
        const movementTasks = yield* MovementTasks
        return yield* refusable(Effect.flatMap(
          decodeInput(MoveAllRequest, { to_loc_id: to.value }),
          (request) => movementTasks.moveAll(actor, from.value, request)
        ))
      }
      case "SetLocationStatus": {
        const locations = yield* Locations
        const location = pick(yield* locations.listLocations(actor, {}), op.location)
        if (Option.isNone(location)) return skipped
        const { client_id, description, loc_type, max_tags, max_volume, max_weight, sequence, zone } = location.value
        return yield* refusable(Effect.flatMap(
          decodeInput(LocationUpdate, {
            loc_type,
            description,
            zone,
            sequence,
            max_tags,
            max_weight,
            max_volume,
            client_id,
            status: op.status
          }),
          (update) => locations.updateLocation(actor, location.value.loc_id, update)
        ))
      }
      case "SetPickFace": {
        const sku = pick(world.skus, op.sku)
        const face = pick(world.faces, op.face)
        if (Option.isNone(sku) || Option.isNone(face)) return skipped
        const pickFaces = yield* PickFaces
        return yield* refusable(Effect.flatMap(
          decodeInput(PickFaceSetting, {
            min_qty: op.min_qty,
            max_qty: op.min_qty + op.span,
            replenish_multiple: op.replenish_multiple
          }),
          (setting) => pickFaces.putPickFace(actor, sku.value, face.value, setting)
        ))
      }
      case "Replenish": {
        const sku = op.sku === null ? Option.some(null) : pick(world.skus, op.sku)
        if (Option.isNone(sku)) return skipped
        const replenishment = yield* Replenishment
        return yield* refusable(Effect.flatMap(
          decodeInput(ReplenishmentRunRequest, { sku_id: sku.value }),
          (request) => replenishment.runReplenishment(actor, request)
        ))
      }
      case "CreateCount": {
        const location = pick(
          yield* Effect.flatMap(Locations, (locations) => locations.listLocations(actor, {})),
          op.location
        )
        const sku = op.sku === null ? Option.some(null) : pick(world.skus, op.sku)
        if (Option.isNone(location) || Option.isNone(sku)) return skipped
        const counts = yield* Counts
        return yield* refusable(Effect.flatMap(
          decodeInput(NewCountRequest, { loc_id: location.value.loc_id, sku_id: sku.value, blind: op.blind }),
          (request) => counts.createCount(actor, request)
        ))
      }
      case "ReleaseCount":
      case "Recount":
      case "CancelCount": {
        const statuses = op._tag === "ReleaseCount" ? [1] : op._tag === "Recount" ? [23] : [1, 22, 23]
        const count = pick(yield* countsIn(actor, statuses), op.count)
        if (Option.isNone(count)) return skipped
        const counts = yield* Counts
        const id = count.value.id
        return yield* refusable(
          op._tag === "ReleaseCount"
            ? counts.releaseCount(actor, id)
            : op._tag === "Recount"
            ? counts.recountCount(actor, id)
            : counts.cancelCount(actor, id)
        )
      }
      case "RecordCount": {
        const count = pick(yield* countsIn(actor, [22, 23]), op.count)
        if (Option.isNone(count)) return skipped
        const counts = yield* Counts
        const record = yield* Effect.orDie(counts.getCount(actor, count.value.id))
        const lines = countedLines(world, record, op.lines)
        if (lines.length === 0) return skipped
        return yield* refusable(Effect.flatMap(
          decodeInput(RecordCountRequest, { lines }),
          (request) => counts.recordCount(actor, record.id, request)
        ))
      }
      case "ApproveCount": {
        const count = pick(yield* countsIn(actor, [23]), op.count)
        if (Option.isNone(count)) return skipped
        const counts = yield* Counts
        // A user of the site who is no admin: the approval is refused (403).
        const approver = op.admin ? actor : { ...actor, admin: false, userId: UserId.make(`${world.prefix}-counter`) }
        return yield* refusable(Effect.flatMap(
          decodeInput(ApproveCountRequest, { reason_code: op.reason_code }),
          (request) => counts.approveCount(approver, count.value.id, request)
        ))
      }
    }
  })

/** The counts of the actor's site in these statuses, by id. */
const countsIn = (actor: Actor, statuses: ReadonlyArray<number>) =>
  Effect.map(
    Effect.orDie(Effect.flatMap(Counts, (counts) => counts.listCounts(actor, {}))),
    (counts) => counts.filter((count) => statuses.includes(count.status_id))
  )

/**
 * The lines of a `RecordCount` for the count as an admin sees it: each entry counts the count's
 * line at its position (expected + in flight, more or less), or found stock under a new tag; the
 * last entry naming a SKU and tag wins.
 */
const countedLines = (world: World, count: CountRecord, entries: ReadonlyArray<CountedLine>) => {
  const lines = new Map<string, { sku_id: string; tag_id: string | null; qty_counted: number }>()
  for (const [index, entry] of entries.entries()) {
    if (entry.counted === "found") {
      const sku = count.sku_id === null ? pick(world.skus, entry.line) : Option.some(count.sku_id)
      if (Option.isNone(sku)) continue
      const tag = `${world.prefix}-F${count.id}-${count.count_index}-${index}`
      lines.set(JSON.stringify([sku.value, tag]), { sku_id: sku.value, tag_id: tag, qty_counted: entry.by })
      continue
    }
    const line = pick(count.lines, entry.line)
    if (Option.isNone(line)) continue
    const should = Math.max(0, (line.value.expected ?? 0) + (line.value.in_flight ?? 0))
    const counted = entry.counted === "expected"
      ? should
      : entry.counted === "more"
      ? should + entry.by
      : Math.max(0, should - entry.by)
    lines.set(JSON.stringify([line.value.sku_id, line.value.tag_id]), {
      sku_id: line.value.sku_id,
      tag_id: line.value.tag_id,
      qty_counted: counted
    })
  }
  return [...lines.values()]
}

/**
 * The checks of pick faces and counts over one operation, from the site before it to the site
 * after it: one open replenishment per (SKU, face), no face replenished over its max, and FEFO
 * sources for what it opened; the freeze of counted locations, the ledger of a count it completed,
 * and the approval threshold (`isAdmin` says whose approval counts).
 */
export const checkCycle = (
  before: CycleSnapshot,
  after: CycleSnapshot,
  today: string,
  isAdmin: (userId: string) => boolean
): ReadonlyArray<string> => [
  ...checkOneOpenReplenishment(before.tasks, after),
  ...checkNeverOverMax(before.tasks, after),
  ...checkReplenishmentFefo(before.tasks, after, today),
  ...checkFreeze(before, after),
  ...checkCountLedger(before, after),
  ...checkThreshold(after.counts, after.transactions, isAdmin),
  ...(after.orders === undefined ? [] : checkDemand(after.orders, after.claims as ReadonlyArray<LineClaimView>))
]

/** The trace of every lot (SKU and tag) the ledger names against the ledger rows of its contents (`checkTrace`). */
const checkTraces = (
  actor: Actor,
  ledger: ReadonlyArray<LotLedgerRow & { readonly sku_id: string; readonly tag_id: string }>
) =>
  Effect.gen(function*() {
    const holds = yield* Holds
    const lots = new Map(ledger.map((row) => [JSON.stringify([row.sku_id, row.tag_id]), row]))
    const violations: Array<string> = []
    for (const { sku_id, tag_id } of lots.values()) {
      const trace = yield* Effect.orDie(holds.getTrace(actor, { sku_id, tag_id }))
      const rows = ledger.filter((row) => row.sku_id === sku_id && row.tag_id === tag_id)
      violations.push(...checkTrace(trace, rows).map((problem) => `lot ${sku_id}/${tag_id}: ${problem}`))
    }
    return violations
  })

/**
 * Seeds the state, plays the operations, and checks the invariants after each one, and those of
 * pick faces and counts over it (`checkCycle`); after each wave start, also FEFO, that no claim
 * is on stock a location's status keeps in, and that the start took only available (never tasked)
 * stock, tasking none but for the replenishment it triggered; and at the end, the trace of every
 * lot (SKU and tag, `checkTrace`). `violations` is empty when every invariant held throughout.
 */
export const play = (actor: Actor, state: WarehouseState, ops: ReadonlyArray<Op>) =>
  Effect.gen(function*() {
    const world = yield* seed(actor, state)
    const waves = yield* Waves
    const outcomes: Array<Outcome> = []
    const isAdmin = (userId: string) => actor.admin && userId === actor.userId
    let before = yield* snapshot(actor)
    const violations: Array<string> = [...checkInvariants(before)]
    for (const [index, op] of ops.entries()) {
      const outcome = yield* applyOp(world, op)
      outcomes.push(outcome)
      const after = yield* snapshot(actor)
      const found = [...checkInvariants(after), ...checkCycle(before, after, yield* today, isAdmin)]
      if (op._tag === "ShortPick" && outcome._tag === "Done") {
        // The task the operation picked: the open claims in id order, as `GET /tasks` lists them.
        const shorted = pick(
          (before.claims as ReadonlyArray<LineClaimView>).filter((claim) => claim.status === "allocated")
            .sort((a, b) => a.id - b.id),
          op.task
        )
        if (Option.isSome(shorted)) {
          found.push(...checkShortPick({
            before: before as ShortPickChange["before"],
            after: after as ShortPickChange["after"],
            taskId: shorted.value.id,
            today: yield* today
          }))
        }
      }
      if (op._tag === "StartWave" && outcome._tag === "Done") {
        const started = pick(yield* waves.list(actor), op.wave)
        if (Option.isSome(started)) {
          const claims = yield* Effect.orDie(waves.claims(actor, started.value.id))
          found.push(
            ...checkFefo(after.contents, claims, yield* today, after.locations),
            ...checkBlockedAllocation(after.contents, claims, after.locations),
            ...checkUntaskedAllocation(before.contents, after.contents, newReplenishments(before.tasks, after.tasks))
          )
        }
      }
      violations.push(...found.map((violation) => `after op ${index} (${op._tag}): ${violation}`))
      before = after
    }
    violations.push(...(yield* checkTraces(actor, before.transactions)).map((violation) => `at the end: ${violation}`))
    return { world, outcomes, violations }
  })
