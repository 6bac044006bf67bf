/**
 * What the transfer tests share: a destination site, SKUs on both sites, and a transfer shipped
 * through the API (order with `to_site`, a wave of that order alone, every task confirmed, ship).
 */
import { Effect } from "effect"
import { insertSku } from "../../../testing/fixtures.js"
import { expectStatus, unique } from "../../../testing/world.js"
import type { Request } from "./PickingWorld.js"

/** A new plain site as the transfers' destination; yields its id. */
export const destinationSite = (request: Request) =>
  Effect.gen(function*() {
    const site = unique("north")
    expectStatus(yield* request("POST", "/sites", { site_id: site, name: "North" }), 204)
    return site
  })

/** A SKU of the same id at `main` and at each of `sites`; yields its id. */
export const skuOnSites = (sites: ReadonlyArray<string>, prefix = "TS") =>
  Effect.gen(function*() {
    const sku = unique(prefix)
    for (const site_id of ["main", ...sites]) yield* insertSku({ site_id, sku_id: sku })
    return sku
  })

/** Stock of a SKU at `site` (`main` unless told): a content at `loc_id` with tag `tag_id` and the expiry given. */
export const stockAt = (
  request: Request,
  stock: { sku_id: string; loc_id: string; tag_id: string; qty: number; expiry_date?: string | null },
  site = "main"
) => Effect.map(request("POST", "/inventory/adjustments", stock, site), (response) => expectStatus(response, 204))

/** Waves the order `orderId` of `site` alone and picks in full what the wave allocated. */
export const pickOrder = (request: Request, orderId: string, site = "main") =>
  Effect.gen(function*() {
    const definition = { description: `Only ${orderId}`, criterium_id: 2, value: orderId, pick_type: 1 }
    expectStatus(yield* request("POST", "/wave-definitions", definition, site), 204)
    const definitions = (yield* request("GET", "/wave-definitions", undefined, site)).body as ReadonlyArray<
      { readonly id: number; readonly value: string | null }
    >
    const wavedef_id = definitions.find((d) => d.value === orderId)!.id
    const created = yield* request("POST", "/waves/create", { wavedef_id }, site)
    expectStatus(created, 200)
    const waveId = created.body.wave_id as number
    expectStatus(yield* request("POST", "/waves/start", { wave_id: waveId }, site), 200)
    const tasks = (yield* request("GET", `/tasks?wave_id=${waveId}`, undefined, site)).body as ReadonlyArray<
      { readonly id: number }
    >
    for (const task of tasks) expectStatus(yield* request("POST", `/tasks/${task.id}/confirm`, undefined, site), 204)
  })

/**
 * Creates a transfer of `lines` from `fromSite` (`main` unless told) to `toSite`, picks what its
 * wave allocated and ships it; yields the order id and the ship's answer.
 */
export const transferred = (
  request: Request,
  toSite: string,
  lines: ReadonlyArray<{ readonly sku_id: string; readonly qty: number }>,
  fromSite = "main"
) =>
  Effect.gen(function*() {
    const orderId = unique("T")
    expectStatus(yield* request("POST", "/orders", { order_id: orderId, to_site: toSite, lines }, fromSite), 204)
    yield* pickOrder(request, orderId, fromSite)
    return { orderId, shipped: yield* request("POST", `/orders/${orderId}/ship`, undefined, fromSite) }
  })

/** Creates a transfer of `lines` from `main` to `toSite`, picks it in full and ships it; yields the order id. */
export const shippedTransfer = (
  request: Request,
  toSite: string,
  lines: ReadonlyArray<{ readonly sku_id: string; readonly qty: number }>
) =>
  Effect.map(transferred(request, toSite, lines), ({ orderId, shipped }) => {
    expectStatus(shipped, 204)
    return orderId
  })
