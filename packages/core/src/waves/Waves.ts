/**
 * Waves: created from a definition, they take the matching orders; started, they allocate stock
 * and create pick tasks in one transaction (`Start.ts`); deleted, they give every unit back.
 * Messages are the documented Dutch ones.
 */
import { Clock, Effect, Option } from "effect"
import { composeCustomerName } from "../orders/CustomerName.js"
import { OrderPickingStarted } from "../orders/Errors.js"
import { OrderRepository } from "../orders/OrderRepository.js"
import { Replenishment } from "../replenishment/Replenishment.js"
import { EventPublisher } from "../shared/Events.js"
import { TimeZone } from "../shared/Formats.js"
import { Status, statusDescription } from "../shared/Status.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { InventoryRepository } from "../stock/InventoryRepository.js"
import type { PickType } from "./Allocation.js"
import { WaveNotFound, WavePickingStarted, WaveStarted } from "./Errors.js"
import { allocateWave, releaseClaims, type StartPorts } from "./Start.js"
import { toTask } from "./TaskView.js"
import { WaveDefinitions } from "./WaveDefinitions.js"
import { WaveRepository } from "./WaveRepository.js"
import { matchesCriterion } from "./WaveSelection.js"
import { toWaveDetail, toWaveRecord } from "./WaveView.js"

export class Waves extends Effect.Service<Waves>()("@wms/core/Waves", {
  effect: Effect.gen(function*() {
    const waves = yield* WaveRepository
    const definitions = yield* WaveDefinitions
    const { atomically } = yield* Transactor
    const timeZone = yield* TimeZone
    const replenishment = yield* Replenishment
    const ports: StartPorts = {
      waves,
      inventory: yield* InventoryRepository,
      orders: yield* OrderRepository,
      events: yield* EventPublisher,
      timeZone
    }

    const find = (actor: Actor, waveId: number) =>
      Effect.flatMap(
        waves.find(actor.scope, waveId),
        Option.match({
          onNone: () => Effect.fail(new WaveNotFound({ waveId })),
          onSome: Effect.succeed
        })
      )

    const lock = (actor: Actor, waveId: number) =>
      Effect.flatMap(
        waves.lock(actor.scope, waveId),
        Option.match({
          onNone: () => Effect.fail(new WaveNotFound({ waveId })),
          onSome: Effect.succeed
        })
      )

    const create = Effect.fnUntraced(function*(actor: Actor, definitionId: number) {
      const definition = yield* definitions.getWaveDefinition(actor, definitionId)
      const candidates = yield* waves.candidateOrders(actor.scope)
      const selected = candidates.filter((order) => matchesCriterion(definition.criterium_id, definition.value, order))
      const waveId = yield* waves.insert({
        site_id: actor.scope.site_id,
        client_id: actor.scope.client_id,
        status_id: Status.Released,
        criterium_id: definition.criterium_id,
        value: definition.value,
        pick_type: definition.pick_type as PickType,
        autostart: definition.autostart,
        created_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
        created_by: actor.userId
      })
      yield* waves.attachOrders(waveId, selected.map((order) => order.order_ref))
      if (selected.length === 0) {
        return { message: `Wave met id ${waveId} is aangemaakt maar bevat geen orders`, wave_id: waveId }
      }
      if (!definition.autostart) return { message: `Wave met id ${waveId} is aangemaakt`, wave_id: waveId }
      yield* allocateWave(ports, Option.getOrThrow(yield* waves.lock(actor.scope, waveId)))
      yield* replenishment.afterWaveStart(actor, actor.scope.site_id, waveId)
      return { message: `Wave met id ${waveId} wordt aangemaakt en automatisch gestart`, wave_id: waveId }
    }, atomically)

    const start = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      const wave = yield* lock(actor, waveId)
      if (wave.status_id !== Status.Released) return yield* new WaveStarted({ waveId })
      if (!(yield* allocateWave(ports, wave))) return { message: "Geen orders in deze wave" }
      // Pick faces the start allocated from are replenished in the same transaction (warehouse cycle §3.4 R4).
      yield* replenishment.afterWaveStart(actor, actor.scope.site_id, waveId)
      return { message: `Wave met id ${waveId} is gestart` }
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      const wave = yield* lock(actor, waveId)
      const claims = yield* waves.lockClaims({ waveId })
      if (claims.some((claim) => claim.status === "picked") || wave.status_id === Status.InProgress) {
        return yield* new WavePickingStarted({ waveId })
      }
      yield* releaseClaims(ports, claims)
      yield* waves.remove(waveId)
    }, atomically)

    /**
     * Gives back the allocation of an order that is about to be deleted. Once picking of it has
     * started that is a 409. Runs inside the caller's transaction.
     */
    const releaseOrder = Effect.fnUntraced(function*(orderId: string, orderRef: number) {
      const claims = yield* waves.lockClaims({ orderRef })
      if (claims.some((claim) => claim.status === "picked")) {
        return yield* new OrderPickingStarted({ orderId })
      }
      yield* releaseClaims(ports, claims)
    })

    const list = Effect.fnUntraced(function*(actor: Actor) {
      return (yield* waves.list(actor.scope)).map(toWaveRecord)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      const wave = yield* find(actor, waveId)
      return toWaveDetail(wave, yield* waves.totals(waveId))
    })

    const orders = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return (yield* waves.orders(waveId)).map((order) => ({
        order_id: order.order_id,
        order_date: order.order_date,
        status: statusDescription(order.status_id),
        customer: order.customer_name === null ? null : composeCustomerName(order.customer_name, order.customer_town),
        ship_by_date: order.ship_by_date,
        carrier: order.carrier_name,
        ship_dock: order.ship_dock
      }))
    })

    const claimsets = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return yield* waves.claimsets(waveId)
    })

    const claims = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return (yield* waves.claims(waveId)).map((claim) => ({
        id: claim.id,
        content_id: claim.content_id,
        sku_id: claim.sku_id,
        qty: claim.qty,
        order_id: claim.order_id,
        line_id: claim.line_id,
        claimset: claim.claimset_id,
        status: claim.status,
        loc_id: claim.from_loc_id
      }))
    })

    /** The pick tasks of a wave: one per claim still allocated. */
    const tasks = Effect.fnUntraced(function*(actor: Actor, waveId: number) {
      yield* find(actor, waveId)
      return (yield* waves.claims(waveId)).filter((claim) => claim.status === "allocated").map((claim) =>
        toTask(claim, timeZone)
      )
    })

    return { list, get, orders, claimsets, claims, tasks, create, start, remove, releaseOrder } as const
  })
}) {}
