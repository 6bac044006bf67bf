/**
 * The store port for sites and clients.
 */
import { Context, type Effect, type Option } from "effect"
import type { ClientId, SiteId } from "../shared/Ids.js"
import type { Client, Site } from "../shared/Site.js"
import type { ScopeTarget } from "../shared/Tenancy.js"

export class SiteRepository extends Context.Tag("@wms/core/SiteRepository")<SiteRepository, {
  readonly listSites: Effect.Effect<ReadonlyArray<Site>>
  readonly findSite: (siteId: SiteId) => Effect.Effect<Option.Option<Site>>
  /** Inserts the site; false when its id is taken by a site or a client. */
  readonly insertSite: (site: Site) => Effect.Effect<boolean>
  readonly listClients: (siteId: SiteId) => Effect.Effect<ReadonlyArray<Client>>
  /** Inserts the client; false when its id is taken by a client or a site. */
  readonly insertClient: (client: Client) => Effect.Effect<boolean>
  /** The site, or the client and its site, that a `site` header value names. */
  readonly findTarget: (id: string) => Effect.Effect<Option.Option<ScopeTarget>>
  /** Whether the client exists and belongs to the site. */
  readonly clientOfSite: (siteId: SiteId, clientId: ClientId) => Effect.Effect<boolean>
}>() {}
