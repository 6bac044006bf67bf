/**
 * What makes an order a transfer (spec §3 T1, T7): another site of the installation as its
 * destination instead of a customer, asked for by an admin in a site's scope, with SKUs the
 * destination has too. Checked when the order is created, when its lines change, and (the SKUs)
 * again when it ships.
 */
import { Effect, Option } from "effect"
import { SiteNotFound } from "../admin/Errors.js"
import { SiteRepository } from "../admin/SiteRepository.js"
import { invalidField } from "../shared/Errors.js"
import { SiteId } from "../shared/Ids.js"
import type { Actor, Scope } from "../shared/Tenancy.js"
import { TransferInClientScope, TransferSkuMissing } from "./Errors.js"
import { OrderRepository } from "./OrderRepository.js"

/** The destination's own scope: every SKU of the site, its clients' too. */
const destinationScope = (toSite: string): Scope => ({
  site_id: SiteId.make(toSite),
  fulfillment: false,
  client_id: null
})

/** Fails with 409 naming the first SKU of `lines` the destination lacks. */
export const checkDestinationSkus = Effect.fnUntraced(function*(
  toSite: string,
  lines: ReadonlyArray<{ readonly sku_id: string }>
) {
  if (lines.length === 0) return
  const orders = yield* OrderRepository
  const found = yield* orders.visibleSkus(destinationScope(toSite), [...new Set(lines.map((line) => line.sku_id))])
  const missing = lines.find((line) => !found.has(line.sku_id))
  if (missing !== undefined) return yield* new TransferSkuMissing({ skuId: missing.sku_id, siteId: toSite })
})

/**
 * The checks of a new transfer order beyond those of any order, in the API's order (400, 404, 409):
 * no customer, to another site that exists and is not a client, from a site's scope, of SKUs the
 * destination has. The caller checks first that an admin asks (403).
 */
export const checkTransferOrder = Effect.fnUntraced(function*(
  actor: Actor,
  order: {
    readonly to_site: string
    readonly customer_id?: number | null | undefined
    readonly lines: ReadonlyArray<{ readonly sku_id: string }>
  }
) {
  if (order.customer_id != null) {
    return yield* invalidField("to_site", "a transfer goes to a site, not a customer: give to_site or customer_id")
  }
  if (order.to_site === actor.scope.site_id) {
    return yield* invalidField("to_site", `must be another site than the order's own, ${order.to_site}`)
  }
  const target = yield* (yield* SiteRepository).findTarget(order.to_site)
  if (Option.isSome(target) && target.value._tag === "Client") {
    return yield* invalidField(
      "to_site",
      `${order.to_site} is a client of site ${target.value.site.site_id}, not a site`
    )
  }
  if (Option.isNone(target)) return yield* new SiteNotFound({ siteId: order.to_site })
  if (actor.scope.client_id !== null) return yield* new TransferInClientScope({ clientId: actor.scope.client_id })
  yield* checkDestinationSkus(order.to_site, order.lines)
})
