/**
 * SKUs (§2.4, DECISIONS §5). A SKU id is unique per site. A SKU is owned by the site, or by the
 * client the scope or the body names; its owner never changes afterwards. `PUT /skus/:id` is an
 * idempotent upsert: it replaces every writable field, or creates the SKU when it is missing.
 */
import { Effect, Either, Option, ParseResult, Schema } from "effect"
import { ownerForWrite } from "../admin/Ownership.js"
import { SiteRepository } from "../admin/SiteRepository.js"
import { invalidField } from "../shared/Errors.js"
import { ClientId, type SiteId } from "../shared/Ids.js"
import { type Actor, canSee, type Owner } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import type { ListWindow } from "../shared/Window.js"
import { SkuExists, SkuNotFound } from "./Errors.js"
import { clientUnchangeable, TextId } from "./MasterData.js"
import type { NewSku, Sku, SkuUpdate } from "./Sku.js"
import { skuGroupOwner } from "./SkuGroup.js"
import { SkuGroupRepository } from "./SkuGroupRepository.js"
import { SkuRepository } from "./SkuRepository.js"

const decodeSkuId = Schema.decodeUnknownEither(TextId)

const skuOwner = (siteId: SiteId, sku: Sku): Owner => ({
  site_id: siteId,
  client_id: sku.client_id === null ? null : ClientId.make(sku.client_id)
})

export class Skus extends Effect.Service<Skus>()("@wms/core/Skus", {
  effect: Effect.gen(function*() {
    const repository = yield* SkuRepository
    const groups = yield* SkuGroupRepository
    const sites = yield* SiteRepository
    const { atomically } = yield* Transactor

    const exists = (skuId: string) => new SkuExists({ skuId })

    // The group must be one the caller sees and, when it belongs to a client, the SKU's client.
    // The shared row lock keeps the group from being deleted before the SKU is written.
    const checkGroup = (actor: Actor, owner: Owner, groupId: string | null) =>
      Effect.gen(function*() {
        if (groupId === null) return
        const group = yield* groups.find(owner.site_id, groupId, "share")
        const usable = Option.isSome(group) &&
          canSee(actor.scope, skuGroupOwner(owner.site_id, group.value)) &&
          (group.value.client_id === null || group.value.client_id === owner.client_id)
        if (!usable) return yield* invalidField("sku_group", `SKU group ${groupId} does not exist`)
      })

    const recordOf = (actor: Actor, skuId: string, owner: Owner, input: NewSku | SkuUpdate) =>
      Effect.gen(function*() {
        if (input.expiry_sku && input.expiry_days === null) {
          return yield* invalidField("expiry_days", "is required when expiry_sku is true")
        }
        yield* checkGroup(actor, owner, input.sku_group)
        const { client_id: _client, sku_id: _id, ...fields } = input
        return { sku_id: skuId, client_id: owner.client_id, ...fields } satisfies Sku
      })

    const ownerFor = (actor: Actor, clientId: ClientId | null) =>
      Effect.provideService(ownerForWrite(actor.scope, clientId), SiteRepository, sites)

    const replace = (actor: Actor, current: Sku, input: SkuUpdate) =>
      Effect.gen(function*() {
        const owner = skuOwner(actor.scope.site_id, current)
        // The id is taken on the site by a SKU this scope may not see.
        if (!canSee(actor.scope, owner)) return yield* exists(current.sku_id)
        if (input.client_id !== null && input.client_id !== current.client_id) {
          return yield* clientUnchangeable(`SKU ${current.sku_id}`, current.client_id)
        }
        yield* repository.update(actor.scope.site_id, yield* recordOf(actor, current.sku_id, owner, input))
      })

    const list = Effect.fnUntraced(function*(actor: Actor, window: ListWindow = {}) {
      return yield* repository.list(actor.scope, window)
    })

    const get = Effect.fnUntraced(function*(actor: Actor, id: string) {
      const found = yield* repository.find(actor.scope.site_id, id)
      if (Option.isNone(found) || !canSee(actor.scope, skuOwner(actor.scope.site_id, found.value))) {
        return yield* new SkuNotFound({ skuId: id })
      }
      return found.value
    })

    const create = Effect.fnUntraced(function*(actor: Actor, input: NewSku) {
      const owner = yield* ownerFor(actor, input.client_id)
      const sku = yield* recordOf(actor, input.sku_id, owner, input)
      if (!(yield* repository.insert(actor.scope.site_id, sku))) return yield* exists(input.sku_id)
    }, atomically)

    const upsert = Effect.fnUntraced(function*(actor: Actor, id: string, input: SkuUpdate) {
      if (input.sku_id !== undefined && input.sku_id !== id) {
        return yield* invalidField("sku_id", `must be ${id}, the id in the path`)
      }
      const skuId = decodeSkuId(id)
      if (Either.isLeft(skuId)) {
        return yield* invalidField("sku_id", ParseResult.ArrayFormatter.formatErrorSync(skuId.left)[0].message)
      }
      const current = yield* repository.find(actor.scope.site_id, id)
      if (Option.isSome(current)) return yield* replace(actor, current.value, input)
      const sku = yield* recordOf(actor, id, yield* ownerFor(actor, input.client_id), input)
      if (yield* repository.insert(actor.scope.site_id, sku)) return
      // A concurrent request created it since the lookup: replace that one instead.
      const created = yield* repository.find(actor.scope.site_id, id)
      return yield* replace(actor, Option.getOrThrow(created), input)
    }, atomically)

    return {
      listSkus: list,
      getSku: get,
      createSku: create,
      updateSku: upsert,
      /** @deprecated Use `listSkus`. */
      list,
      /** @deprecated Use `getSku`. */
      get,
      /** @deprecated Use `createSku`. */
      create,
      /** @deprecated Use `updateSku`. */
      upsert
    } as const
  })
}) {}
