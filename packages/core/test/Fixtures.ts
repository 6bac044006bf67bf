/**
 * What the service tests share: their callers (a user of site `main`, and one limited to client
 * `c1` of the fulfillment site `F`), a SKU, a managed location, and the tag and message of a refusal.
 */
import { type Actor, ClientId, type LocationWithOccupancy, type Occupancy, SiteId, type Sku, UserId } from "@wms/core"
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

/** Nothing at a location and nothing on its way there. */
export const emptyOccupancy: Occupancy = {
  qty_on_hand: 0,
  tags: 0,
  weight: 0,
  volume: 0,
  inbound_qty: 0,
  inbound_tags: 0,
  inbound_weight: 0,
  inbound_volume: 0,
  tag_ids: [],
  holdings: []
}

/** An empty, unlimited, Active Storage location of site `main` unless the fields say otherwise. */
export const location = (
  fields: Partial<Omit<LocationWithOccupancy, "occupancy">> & { readonly occupancy?: Partial<Occupancy> } = {}
): LocationWithOccupancy => ({
  site_id: "main",
  loc_id: "S-01",
  description: null,
  loc_type: "Storage",
  zone: null,
  sequence: 0,
  max_tags: null,
  max_weight: null,
  max_volume: null,
  status: "Active",
  client_id: null,
  last_counted: null,
  ...fields,
  occupancy: { ...emptyOccupancy, ...fields.occupancy }
})

/** `[_tag, message]` of the error `effect` fails with. */
export const failure = <A, E extends { readonly _tag: string; readonly message: string }>(
  effect: Effect.Effect<A, E>
) => Effect.map(Effect.flip(effect), (error): [string, string] => [error._tag, error.message])
