/**
 * Sites and the clients of fulfillment sites: the tenants of the warehouse.
 */
import { Schema } from "effect"
import { ClientId, SiteId } from "./Ids.js"

export class Site extends Schema.Class<Site>("Site")({
  site_id: SiteId,
  name: Schema.String,
  fulfillment: Schema.Boolean
}) {}

export class Client extends Schema.Class<Client>("Client")({
  client_id: ClientId,
  site_id: SiteId,
  name: Schema.String
}) {}

/** The body of `POST /sites`. */
export const NewSite = Schema.Struct({
  site_id: SiteId,
  name: Schema.String.pipe(Schema.minLength(1)),
  fulfillment: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
export type NewSite = typeof NewSite.Type

/** The body of `POST /clients`; the site is the one of the request's scope. */
export const NewClient = Schema.Struct({
  client_id: ClientId,
  name: Schema.String.pipe(Schema.minLength(1))
})
export type NewClient = typeof NewClient.Type
