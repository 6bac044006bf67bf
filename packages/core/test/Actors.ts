/**
 * The callers of the service tests: a user of site `main`, and one limited to client `c1` of the
 * fulfillment site `F`.
 */
import { type Actor, ClientId, SiteId, UserId } from "@wms/core"

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
