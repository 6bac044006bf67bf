/**
 * Movement tasks (extension, warehouse cycle §3.2–3.3): moves made by hand, putaway of received
 * stock, emptying a location, and confirming or cancelling a task. One transaction per call.
 *
 * Locks are taken in the one order every writer keeps (wave → order → claim → movement task →
 * contents by content_id → locations by loc_id), so a move never deadlocks with a pick, a wave
 * start or another move. The source is locked before its `available` is checked, so two tasks
 * can never take the same units; a destination is locked before its room is counted, so two
 * tasks can never take the same room; a task is closed by an update guarded on Open, so a
 * confirm and a cancel never both apply.
 */
import { Clock, Effect, Option } from "effect"
import { fits, isLimited, type Load, weighsLoads, withInbound } from "../locations/Capacity.js"
import { LocationFull, LocationStatusRefuses } from "../locations/Errors.js"
import { letsStockOut, type LocationWithOccupancy, type StoredLocation, takesStockIn } from "../locations/Location.js"
import { LocationRepository, type LockedLocation } from "../locations/LocationRepository.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { ReceivingRepository } from "../receiving/ReceivingRepository.js"
import { invalidField, InvalidInput } from "../shared/Errors.js"
import { maxQuantity } from "../shared/Formats.js"
import { statusDescription } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { CountInFlight } from "../stock/CountInFlight.js"
import { ContentFull, ContentHeld, ContentNotFound } from "../stock/Errors.js"
import { compareStock } from "../stock/Fefo.js"
import { firstHold, holdEntries } from "../stock/Held.js"
import { type Content, InventoryRepository } from "../stock/InventoryRepository.js"
import * as Ledger from "../stock/Ledger.js"
import { available } from "../stock/Stock.js"
import { ContentNotAtReceiving, ContentUnavailable, MovementTaskClosed, MovementTaskNotFound } from "./Errors.js"
import type {
  ConfirmMoveRequest,
  MoveAllRequest,
  MovementTaskQuery,
  MovementTaskStatusId,
  NewMoveRequest,
  PutawayRequest,
  StoredMovementTask
} from "./MovementTask.js"
import { MovementTaskRepository } from "./MovementTaskRepository.js"
import { atReceiving, loadOf, makeTasking, type TaskToOpen } from "./Tasking.js"

const notFound = (taskId: number) => new MovementTaskNotFound({ taskId })

const closed = (task: Pick<StoredMovementTask, "id" | "status_id">) =>
  new MovementTaskClosed({ taskId: task.id, status: statusDescription(task.status_id) })

const alreadyThere = invalidField("to_loc_id", "is where the stock already is")

const refuses = (location: StoredLocation) =>
  new LocationStatusRefuses({ locId: location.loc_id, status: location.status })

/** Whether the location is managed and frozen by a count. */
const isCounting = (location: Option.Option<StoredLocation>) =>
  Option.isSome(location) && location.value.status === "Counting"

/** The distinct ids in `loc_id` order: the order locations are locked in. */
const lockOrder = (...locIds: ReadonlyArray<string>) => [...new Set(locIds)].sort()

export class MovementTasks extends Effect.Service<MovementTasks>()("@wms/core/MovementTasks", {
  effect: Effect.gen(function*() {
    const repository = yield* MovementTaskRepository
    const inventory = yield* InventoryRepository
    const locations = yield* LocationRepository
    const skus = yield* SkuRepository
    const receipts = yield* ReceivingRepository
    const counts = yield* CountInFlight
    const { atomically } = yield* Transactor
    const tasking = yield* makeTasking

    const lockLocations = Effect.fnUntraced(function*(siteId: string, ...locIds: ReadonlyArray<string>) {
      const locked = yield* locations.lockMany(siteId, lockOrder(...locIds), "update")
      return (locId: string) => Option.fromNullable(locked.find((l) => l.loc_id === locId))
    })

    /** The locations locked as `lockLocations` locks them, without their occupancy (`checkRoomAt` reads it). */
    const lockBare = Effect.fnUntraced(function*(siteId: string, ...locIds: ReadonlyArray<string>) {
      const locked = yield* locations.lockManyBare(siteId, lockOrder(...locIds), "update")
      return (locId: string) => Option.fromNullable(locked.find((l) => l.loc_id === locId))
    })

    /** Refuses stock leaving a managed location whose status keeps it in. */
    const checkOut = (location: Option.Option<StoredLocation>) =>
      Option.isSome(location) && !letsStockOut(location.value.status) ? refuses(location.value) : Effect.void

    /** Refuses stock arriving at a managed location whose status keeps it out. */
    const checkIn = (location: Option.Option<StoredLocation>) =>
      Option.isSome(location) && !takesStockIn(location.value.status) ? refuses(location.value) : Effect.void

    /**
     * Refuses moving held stock anywhere but to a managed Quarantine location (spec §1 H1, H3),
     * naming the oldest hold that covers it. Read after the source's lock.
     */
    const checkHeld = Effect.fnUntraced(function*(
      sources: ReadonlyArray<Content>,
      destination: Option.Option<StoredLocation>
    ) {
      if (Option.isSome(destination) && destination.value.loc_type === "Quarantine") return
      const held = yield* inventory.holdsOn(sources.map((source) => source.content_id))
      for (const source of sources) {
        const holds = held.get(source.content_id)
        if (holds !== undefined) {
          return yield* new ContentHeld({ contentId: source.content_id, holdId: firstHold(holds).hold_id })
        }
      }
    })

    /** What `qty` of a content weighs and takes up at its destination `at`: its SKU is read only where that counts. */
    const loadFor = (
      stock: Pick<Content, "site_id" | "sku_id" | "client_id" | "tag_id">,
      qty: number,
      at: StoredLocation
    ) =>
      weighsLoads(at)
        ? Effect.map(skus.find(stock.site_id, stock.sku_id), (sku) => loadOf(stock, qty, sku))
        : Effect.succeed(loadOf(stock, qty, Option.none()))

    /** Refuses a load the location has no room for, counting what is on hand and inbound. */
    const checkRoom = (location: LocationWithOccupancy, load: Load) =>
      fits(location, load)
        ? Effect.void
        : new LocationFull({ locId: location.loc_id, qty: load.qty, skuId: load.sku_id })

    /**
     * Refuses `qty` of a content the locked location has no room for; its occupancy, read after its
     * lock, only when it has a limit.
     */
    const checkRoomAt = Effect.fnUntraced(function*(
      location: LockedLocation,
      stock: Pick<Content, "site_id" | "sku_id" | "client_id" | "tag_id">,
      qty: number
    ) {
      if (!isLimited(location)) return
      const load = yield* loadFor(stock, qty, location)
      const [occupancy] = yield* locations.occupancyOf(location.site_id, [location.loc_id])
      yield* checkRoom({ ...location, occupancy }, load)
    })

    const list = Effect.fnUntraced(function*(actor: Actor, query: MovementTaskQuery) {
      const { limit, offset, status_id, ...filter } = query
      const status = (status_id === undefined ? 1 : Number(status_id)) as MovementTaskStatusId
      const found = yield* repository.list(actor.scope, { ...filter, status_id: status }, { limit, offset })
      return found.map((task) => tasking.toRecord(task))
    })

    const get = Effect.fnUntraced(function*(actor: Actor, taskId: number) {
      const found = yield* repository.find(actor.scope, taskId, false)
      if (Option.isNone(found)) return yield* notFound(taskId)
      return tasking.toRecord(found.value)
    })

    /** The content a move request names, locked: by id, or the first in FEFO order of a SKU at a location with enough available. */
    const sourceOf = Effect.fnUntraced(function*(actor: Actor, request: NewMoveRequest) {
      if (request.content_id !== null) {
        const found = yield* inventory.lockContent(actor.scope, request.content_id)
        if (Option.isNone(found)) return yield* new ContentNotFound({ contentId: request.content_id })
        return found.value
      }
      if (request.sku_id === null) return yield* new InvalidInput({ message: "Missing field content_id" })
      if (request.from_loc_id === null) return yield* new InvalidInput({ message: "Missing field from_loc_id" })
      const { from_loc_id, sku_id, tag_id } = request
      const there = (yield* inventory.listContentsAt(actor.scope, from_loc_id))
        .filter((c) => c.sku_id === sku_id && (tag_id === null || c.tag_id === tag_id))
        .sort(compareStock)
      if (there.length === 0) {
        return yield* invalidField("from_loc_id", `no stock of SKU ${sku_id} at ${from_loc_id}`)
      }
      const chosen = there.find((c) => available(c) >= request.qty) ??
        there.reduce((most, c) => (available(c) > available(most) ? c : most))
      const locked = yield* inventory.lockContent(actor.scope, chosen.content_id)
      if (Option.isNone(locked)) return yield* new ContentNotFound({ contentId: chosen.content_id })
      return locked.value
    })

    const create = Effect.fnUntraced(function*(actor: Actor, request: NewMoveRequest) {
      const source = yield* sourceOf(actor, request)
      if (request.to_loc_id === source.loc_id) return yield* alreadyThere
      const location = yield* lockBare(actor.scope.site_id, source.loc_id, request.to_loc_id)
      yield* checkOut(location(source.loc_id))
      if (request.qty > available(source)) {
        return yield* new ContentUnavailable({
          contentId: source.content_id,
          available: available(source),
          qty: request.qty
        })
      }
      const destination = location(request.to_loc_id)
      yield* checkHeld([source], destination)
      yield* checkIn(destination)
      if (Option.isSome(destination)) yield* checkRoomAt(destination.value, source, request.qty)
      const [task] = yield* tasking.open(actor, [{
        source,
        task_type: "Move",
        qty: request.qty,
        to_loc_id: request.to_loc_id,
        reason: request.reason
      }])
      return task
    }, atomically)

    /** The Open task, locked; else 404, or 409 naming its status. */
    const openTask = Effect.fnUntraced(function*(actor: Actor, taskId: number) {
      const found = yield* repository.find(actor.scope, taskId, true)
      if (Option.isNone(found)) return yield* notFound(taskId)
      if (found.value.status_id !== 1) return yield* closed(found.value)
      return found.value
    })

    /** Closes the locked task, guarded on its being Open: a close that loses a race reads why. */
    const close = Effect.fnUntraced(function*(
      actor: Actor,
      task: StoredMovementTask,
      closing: { readonly status_id: 20 | 21; readonly to_loc_id: string }
    ) {
      const done = yield* repository.close(task.id, { ...closing, final_loc_id: closing.to_loc_id })
      if (done) return
      const now = yield* repository.find(actor.scope, task.id, false)
      return yield* Option.isSome(now) ? closed(now.value) : notFound(task.id)
    })

    /** The task's source, locked: it exists as long as the task does. */
    const lockSource = (actor: Actor, task: StoredMovementTask) =>
      Effect.flatMap(
        inventory.lockContent(actor.scope, task.content_id),
        Option.match({
          onNone: () => Effect.dieMessage(`content ${task.content_id} of movement task ${task.id} is gone`),
          onSome: Effect.succeed
        })
      )

    /**
     * The Open task, completed where it was planned to go and locked; else 404, or 409 naming its
     * status. A check of the confirm that fails after it rolls the completion back with the rest.
     */
    const completeTask = Effect.fnUntraced(function*(actor: Actor, taskId: number) {
      const completed = yield* repository.complete(actor.scope, taskId)
      if (Option.isSome(completed)) return completed.value
      const found = yield* repository.find(actor.scope, taskId, false)
      return yield* Option.isSome(found) ? closed(found.value) : notFound(taskId)
    })

    const confirm = Effect.fnUntraced(function*(actor: Actor, taskId: number, request: ConfirmMoveRequest) {
      const task = yield* completeTask(actor, taskId)
      const qty = request.qty ?? task.qty
      if (qty > task.qty) return yield* invalidField("qty", `must be at most the task's quantity, ${task.qty}`)
      const to = request.to_loc_id ?? task.to_loc_id
      if (to === task.from_loc_id) return yield* alreadyThere
      const source = yield* lockSource(actor, task)
      const found = yield* inventory.lockContentAt(source, {
        sku_id: source.sku_id,
        loc_id: to,
        tag_id: source.tag_id,
        expiry_date: source.expiry_date
      })
      const location = yield* lockBare(actor.scope.site_id, task.from_loc_id, to)
      // A task made before its source's count was released may finish: the count records it in flight.
      const from = location(task.from_loc_id)
      if (Option.isNone(from) || from.value.status !== "Counting") yield* checkOut(from)
      const destination = location(to)
      // A task made before a hold goes where it was planned (H2); another destination only to Quarantine.
      if (to !== task.to_loc_id) yield* checkHeld([source], destination)
      yield* checkIn(destination)
      // A planned destination counts the task as inbound already: only an override needs room.
      if (Option.isSome(destination) && to !== task.to_loc_id) yield* checkRoomAt(destination.value, source, qty)
      if (Option.isSome(found) && found.value.qty + qty > maxQuantity) {
        return yield* new ContentFull({ contentId: found.value.content_id, max: maxQuantity })
      }

      if (to !== task.to_loc_id) yield* repository.redirect(task.id, to)
      yield* inventory.setQuantities(source.content_id, {
        qty: source.qty - qty,
        qty_allocated: source.qty_allocated,
        qty_tasked_from: source.qty_tasked_from - task.qty
      })
      const arrival = Option.isSome(found)
        ? found.value
        : {
          site_id: source.site_id,
          client_id: source.client_id,
          sku_id: source.sku_id,
          loc_id: to,
          tag_id: source.tag_id,
          expiry_date: source.expiry_date,
          qty: 0,
          qty_allocated: 0,
          qty_tasked_from: 0,
          // Moving does not make stock younger: FEFO keeps its place.
          created_at: source.created_at
        }
      const destinationId = Option.isSome(found)
        ? found.value.content_id
        : yield* inventory.insertContent({ ...arrival, qty })
      if (Option.isSome(found)) {
        yield* inventory.setQuantities(destinationId, { ...found.value, qty: found.value.qty + qty })
      }
      // A move tasked before its source's count was released is that count's in-flight change. Only a
      // Counting location has a count in flight (its release sets the status, under the lock held
      // here, and its end sets it back), and the destination never is one (`checkIn` refused it).
      if (isCounting(from)) yield* counts.addInFlight(source, -qty)

      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      const notes = `Movement task ${task.id}`
      const moved = Ledger.entry(task.task_type, { ...arrival, content_id: destinationId }, {
        qty,
        from: task.from_loc_id,
        to,
        from_content_id: source.content_id,
        notes,
        created_at: createdAt
      })
      const released = task.qty - qty
      // The holds that begin to cover the destination: a content hold of the source follows its stock,
      // and a scope hold covers stock that enters an empty content of it (H3, H4).
      const carried = yield* inventory.carryContentHolds(source.content_id, destinationId)
      const entered = arrival.qty > 0 ? [] : (yield* inventory.holdsOn([destinationId])).get(destinationId) ?? []
      const newlyHeld = [
        ...carried,
        ...entered.filter((hold) => !carried.some((c) => c.hold_id === hold.hold_id))
      ]
      yield* inventory.appendTransactions([
        moved,
        ...(released === 0 ? [] : [
          Ledger.entry("Untask", source, {
            qty: released,
            from: task.from_loc_id,
            to: task.to_loc_id,
            notes,
            created_at: createdAt
          })
        ]),
        ...holdEntries({ ...arrival, content_id: destinationId, loc_id: to }, newlyHeld, arrival.qty + qty, createdAt)
      ])
    }, atomically)

    const cancel = Effect.fnUntraced(function*(actor: Actor, taskId: number) {
      const task = yield* openTask(actor, taskId)
      const source = yield* lockSource(actor, task)
      yield* close(actor, task, { status_id: 21, to_loc_id: task.to_loc_id })
      yield* inventory.setQuantities(source.content_id, {
        qty: source.qty,
        qty_allocated: source.qty_allocated,
        qty_tasked_from: source.qty_tasked_from - task.qty
      })
      yield* inventory.appendTransaction(Ledger.entry("Untask", source, {
        qty: task.qty,
        from: task.from_loc_id,
        to: task.to_loc_id,
        notes: `Movement task ${task.id}`,
        created_at: new Date(yield* Clock.currentTimeMillis).toISOString()
      }))
    }, atomically)

    const moveAll = Effect.fnUntraced(function*(actor: Actor, locId: string, request: MoveAllRequest) {
      if (request.to_loc_id === locId) return yield* alreadyThere
      const seen = (yield* inventory.listContentsAt(actor.scope, locId))
        .filter((c) => available(c) > 0)
        .map((c) => c.content_id)
      const sources: Array<Content> = []
      for (const contentId of seen) {
        const locked = yield* inventory.lockContent(actor.scope, contentId)
        if (Option.isSome(locked) && locked.value.loc_id === locId && available(locked.value) > 0) {
          sources.push(locked.value)
        }
      }
      if (sources.length === 0) return []
      const location = yield* lockLocations(actor.scope.site_id, locId, request.to_loc_id)
      yield* checkOut(location(locId))
      // The room is counted over all the tasks: each one's load is inbound for the next.
      let destination = location(request.to_loc_id)
      yield* checkHeld(sources, destination)
      yield* checkIn(destination)
      const toOpen: Array<TaskToOpen> = []
      for (const source of sources) {
        const qty = available(source)
        if (Option.isSome(destination)) {
          const load = yield* loadFor(source, qty, destination.value)
          yield* checkRoom(destination.value, load)
          destination = Option.some(withInbound(destination.value, load))
        }
        toOpen.push({ source, task_type: "Move", qty, to_loc_id: request.to_loc_id, reason: request.reason })
      }
      return yield* tasking.open(actor, toOpen)
    }, atomically)

    const putaway = Effect.fnUntraced(function*(actor: Actor, request: PutawayRequest) {
      const found = yield* inventory.lockContent(actor.scope, request.content_id)
      if (Option.isNone(found)) return yield* new ContentNotFound({ contentId: request.content_id })
      const source = found.value
      const location = yield* lockLocations(actor.scope.site_id, source.loc_id)
      const here = location(source.loc_id)
      if (!atReceiving(source.loc_id, here, yield* receipts.receivingLocation(actor.scope.site_id))) {
        return yield* new ContentNotAtReceiving({ contentId: source.content_id, locId: source.loc_id })
      }
      yield* checkOut(here)
      // Putaway goes to storage or a pick face, never to Quarantine.
      yield* checkHeld([source], Option.none())
      const run = yield* tasking.planPutaways(actor.scope.site_id, [source])
      return yield* tasking.open(actor, run.tasks)
    }, atomically)

    return {
      moveAll,
      listMovementTasks: list,
      getMovementTask: get,
      createMovementTask: create,
      confirmMovementTask: confirm,
      cancelMovementTask: cancel,
      createPutawayTasks: putaway,
      /** @deprecated Use `listMovementTasks`. */
      list,
      /** @deprecated Use `getMovementTask`. */
      get,
      /** @deprecated Use `createMovementTask`. */
      create,
      /** @deprecated Use `confirmMovementTask`. */
      confirm,
      /** @deprecated Use `cancelMovementTask`. */
      cancel,
      /** @deprecated Use `createPutawayTasks`. */
      putaway
    } as const
  })
}) {}
