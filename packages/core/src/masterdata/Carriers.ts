/**
 * Carriers (§2.9). A carrier belongs to a site, not to a client: every scope of the site, a
 * client's included, sees and maintains the same carriers.
 */
import { Effect, Option } from "effect"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import type { ListWindow } from "../shared/Window.js"
import type { CarrierInput } from "./Carrier.js"
import { CarrierRepository } from "./CarrierRepository.js"
import { CarrierInUse, CarrierNotFound } from "./Errors.js"
import type { RowLock } from "./MasterData.js"

const notFound = (carrierId: number) => new CarrierNotFound({ carrierId })

export class Carriers extends Effect.Service<Carriers>()("@wms/core/Carriers", {
  effect: Effect.gen(function*() {
    const repository = yield* CarrierRepository
    const { atomically } = yield* Transactor

    const visible = (actor: Actor, id: number, lock: RowLock) =>
      Effect.flatMap(
        repository.find(id, lock),
        (found) =>
          Option.isSome(found) && found.value.site_id === actor.scope.site_id
            ? Effect.succeed(found.value)
            : Effect.fail(notFound(id))
      )

    const list = Effect.fnUntraced(function*(actor: Actor, window: ListWindow = {}) {
      return yield* repository.list(actor.scope.site_id, window)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, id: number) {
      return yield* visible(actor, id, "none")
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: CarrierInput) {
      return yield* repository.insert(actor.scope.site_id, input)
    }, atomically)

    const update = Effect.fnUntraced(function*(actor: Actor, id: number, input: CarrierInput) {
      yield* visible(actor, id, "none")
      if (!(yield* repository.update(id, input))) return yield* notFound(id)
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, id: number) {
      // The lock keeps an order from taking the carrier while it is checked.
      yield* visible(actor, id, "update")
      if (yield* repository.isReferenced(id)) return yield* new CarrierInUse({ carrierId: id })
      yield* repository.remove(id)
    }, atomically)

    return {
      listCarriers: list,
      getCarrier: get,
      createCarrier: create,
      updateCarrier: update,
      deleteCarrier: remove,
      /** @deprecated Use `listCarriers`. */
      list,
      /** @deprecated Use `getCarrier`. */
      get,
      /** @deprecated Use `createCarrier`. */
      create,
      /** @deprecated Use `updateCarrier`. */
      update,
      /** @deprecated Use `deleteCarrier`. */
      remove
    } as const
  })
}) {}
