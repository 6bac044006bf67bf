/**
 * Pick-face settings (warehouse cycle §3.4 R1): `PUT` upserts the min/max of a SKU at a managed
 * `PickFace` location, `GET` shows them with the face's stock, `DELETE` removes one (its Open
 * Replenish tasks stay: they are stock on its way, confirmed or cancelled as any task). A setting
 * belongs to its SKU: a caller sees and changes the settings of the SKUs it may see.
 *
 * Check order: 400 (body, then `min_qty < max_qty` and `replenish_multiple ≤ max_qty`) → 404 SKU →
 * 404 location → 409 not a pick face.
 */
import { Effect, Option } from "effect"
import { LocationNotFound } from "../locations/Errors.js"
import { LocationRepository } from "../locations/LocationRepository.js"
import { SkuNotFound } from "../masterdata/Errors.js"
import { SkuRepository } from "../masterdata/SkuRepository.js"
import { invalidField } from "../shared/Errors.js"
import type { Actor } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { NotAPickFace, PickFaceNotFound } from "./Errors.js"
import { levelOf, type PickFaceQuery, type PickFaceRecord, type PickFaceSetting } from "./PickFace.js"
import { PickFaceRepository, type PickFaceWithStock } from "./PickFaceRepository.js"

const toRecord = (face: PickFaceWithStock): PickFaceRecord => ({
  sku_id: face.sku_id,
  loc_id: face.loc_id,
  min_qty: face.min_qty,
  max_qty: face.max_qty,
  replenish_multiple: face.replenish_multiple,
  qty: face.qty,
  qty_allocated: face.qty_allocated,
  inbound_qty: face.inbound,
  level: levelOf(face)
})

export class PickFaces extends Effect.Service<PickFaces>()("@wms/core/PickFaces", {
  effect: Effect.gen(function*() {
    const repository = yield* PickFaceRepository
    const locations = yield* LocationRepository
    const skus = yield* SkuRepository
    const { atomically } = yield* Transactor

    /** Whether the caller may see the SKU: a client's scope sees that client's SKUs only. */
    const visibleSku = Effect.fnUntraced(function*(actor: Actor, skuId: string) {
      const sku = yield* skus.find(actor.scope.site_id, skuId)
      return Option.isSome(sku) && (actor.scope.client_id === null || sku.value.client_id === actor.scope.client_id)
    })

    const list = Effect.fnUntraced(function*(actor: Actor, query: PickFaceQuery) {
      const { limit, offset, ...filter } = query
      return (yield* repository.list(actor.scope, filter, { limit, offset })).map(toRecord)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, skuId: string, locId: string) {
      const found = yield* repository.find(actor.scope.site_id, skuId, locId)
      if (Option.isNone(found) || !(yield* visibleSku(actor, skuId))) {
        return yield* new PickFaceNotFound({ skuId, locId })
      }
      return toRecord(found.value)
    })

    const put = Effect.fnUntraced(function*(actor: Actor, skuId: string, locId: string, setting: PickFaceSetting) {
      if (setting.min_qty >= setting.max_qty) {
        return yield* invalidField("max_qty", `must be greater than min_qty, ${setting.min_qty}`)
      }
      if (setting.replenish_multiple !== null && setting.replenish_multiple > setting.max_qty) {
        return yield* invalidField("replenish_multiple", `must be at most max_qty, ${setting.max_qty}`)
      }
      if (!(yield* visibleSku(actor, skuId))) return yield* new SkuNotFound({ skuId })
      // Shared: a concurrent re-type of the location waits until the setting is written.
      const location = yield* locations.find(actor.scope.site_id, locId, "share")
      if (Option.isNone(location)) return yield* new LocationNotFound({ locId })
      if (location.value.loc_type !== "PickFace") return yield* new NotAPickFace({ locId })
      yield* repository.upsert({ site_id: actor.scope.site_id, sku_id: skuId, loc_id: locId, ...setting })
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, skuId: string, locId: string) {
      if (!(yield* visibleSku(actor, skuId)) || !(yield* repository.remove(actor.scope.site_id, skuId, locId))) {
        return yield* new PickFaceNotFound({ skuId, locId })
      }
    }, atomically)

    return {
      listPickFaces: list,
      getPickFace: get,
      putPickFace: put,
      deletePickFace: remove,
      /** @deprecated Use `listPickFaces`. */
      list,
      /** @deprecated Use `getPickFace`. */
      get,
      /** @deprecated Use `putPickFace`. */
      put,
      /** @deprecated Use `deletePickFace`. */
      remove
    } as const
  })
}) {}
