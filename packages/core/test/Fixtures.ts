/**
 * What the service tests share: their callers (a user of site `main`, and one limited to client
 * `c1` of the fulfillment site `F`), a SKU, and the tag and message of a refusal.
 */
import { type Actor, ClientId, SiteId, type Sku, UserId } from "@wms/core"
import { Effect } from "effect"

export const siteActor: Actor = {
  userId: UserId.make("user-1"),
  admin: false,
  scope: { site_id: SiteId.make("main"), fulfillment: false, client_id: null }
}

export const clientActor: Actor = {
  userId: UserId.make("user-2"),
  admin: false,
  scope: { site_id: SiteId.make("F"), fulfillment: true, client_id: ClientId.make("c1") }
}

/** A SKU of the site, without expiry unless the fields say so. */
export const sku = (fields: Partial<Sku> = {}): Sku => ({
  sku_id: "A",
  client_id: null,
  description: "Bolts",
  ean: null,
  sku_group: null,
  expiry_sku: false,
  expiry_days: null,
  obsolete: false,
  new: false,
  each_width: null,
  each_height: null,
  each_depth: null,
  each_weight: null,
  each_volume: null,
  each_value: null,
  preferred_putaway_location: null,
  qty_on_full_pallet: null,
  default_receipt_quantity: null,
  pick_method: 1,
  ...fields
})

/** `[_tag, message]` of the error `effect` fails with. */
export const failure = <A, E extends { readonly _tag: string; readonly message: string }>(
  effect: Effect.Effect<A, E>
) => Effect.map(Effect.flip(effect), (error): [string, string] => [error._tag, error.message])
