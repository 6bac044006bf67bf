/**
 * SKU groups (§2.4). A group's id is generated on create: a numeric string counted per site. A
 * group is owned by the site, or by the client the scope or the body names; its owner never
 * changes afterwards.
 */
import { Effect, Option } from "effect"
import { ownerForWrite } from "../admin/Ownership.js"
import { SiteRepository } from "../admin/SiteRepository.js"
import { invalidField } from "../shared/Errors.js"
import { type Actor, canSee } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import type { ListWindow } from "../shared/Window.js"
import { SkuGroupInUse, SkuGroupNotFound } from "./Errors.js"
import { clientUnchangeable, type RowLock } from "./MasterData.js"
import { type NewSkuGroup, type SkuGroup, skuGroupOwner, type SkuGroupUpdate } from "./SkuGroup.js"
import { SkuGroupRepository } from "./SkuGroupRepository.js"

export class SkuGroups extends Effect.Service<SkuGroups>()("@wms/core/SkuGroups", {
  effect: Effect.gen(function*() {
    const repository = yield* SkuGroupRepository
    const sites = yield* SiteRepository
    const { atomically } = yield* Transactor

    const notFound = (skuGroupId: string) => new SkuGroupNotFound({ skuGroupId })

    const visible = (actor: Actor, id: string, lock: RowLock) =>
      Effect.flatMap(
        repository.find(actor.scope.site_id, id, lock),
        (found) =>
          Option.isSome(found) && canSee(actor.scope, skuGroupOwner(actor.scope.site_id, found.value))
            ? Effect.succeed(found.value)
            : Effect.fail(notFound(id))
      )

    const list = Effect.fnUntraced(function*(actor: Actor, window: ListWindow = {}) {
      return yield* repository.list(actor.scope, window)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, id: string) {
      return yield* visible(actor, id, "none")
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewSkuGroup) {
      const owner = yield* Effect.provideService(ownerForWrite(actor.scope, input.client_id), SiteRepository, sites)
      // A generated id can only be taken by a group written into the store by other means: count on.
      for (;;) {
        const skuGroupId = yield* repository.nextId(owner.site_id)
        const group: SkuGroup = { sku_group_id: skuGroupId, description: input.description, client_id: owner.client_id }
        if (yield* repository.insert(owner, group)) return skuGroupId
      }
    }, atomically)

    const update = Effect.fnUntraced(function*(actor: Actor, id: string, input: SkuGroupUpdate) {
      if (input.sku_group_id !== undefined && input.sku_group_id !== id) {
        return yield* invalidField("sku_group_id", `must be ${id}, the id in the path`)
      }
      const group = yield* visible(actor, id, "update")
      if (input.client_id !== null && input.client_id !== group.client_id) {
        return yield* clientUnchangeable(`SKU group ${id}`, group.client_id)
      }
      if (!(yield* repository.update(actor.scope.site_id, id, input.description))) return yield* notFound(id)
    }, atomically)

    const remove = Effect.fnUntraced(function*(actor: Actor, id: string) {
      // The lock keeps a SKU from joining the group while it is checked.
      yield* visible(actor, id, "update")
      if (yield* repository.isUsed(actor.scope.site_id, id)) {
        return yield* new SkuGroupInUse({ skuGroupId: id })
      }
      yield* repository.remove(actor.scope.site_id, id)
    }, atomically)

    return {
      listSkuGroups: list,
      getSkuGroup: get,
      createSkuGroup: create,
      updateSkuGroup: update,
      deleteSkuGroup: remove,
      /** @deprecated Use `listSkuGroups`. */
      list,
      /** @deprecated Use `getSkuGroup`. */
      get,
      /** @deprecated Use `createSkuGroup`. */
      create,
      /** @deprecated Use `updateSkuGroup`. */
      update,
      /** @deprecated Use `deleteSkuGroup`. */
      remove
    } as const
  })
}) {}
