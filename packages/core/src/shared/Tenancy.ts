/**
 * The tenancy rule. The `site` header names a site or one client of a fulfillment site; the
 * scope it resolves to bounds every read and write of the request. Pure functions only.
 */
import { Either } from "effect"
import { Forbidden } from "./Errors.js"
import type { ClientId, SiteId, UserId } from "./Ids.js"
import type { Client, Site } from "./Site.js"

/** Where a request acts: a whole site, or one client of a fulfillment site. */
export interface Scope {
  readonly site_id: SiteId
  readonly fulfillment: boolean
  /** Set when the request is limited to one client's records. */
  readonly client_id: ClientId | null
}

/** Who a record belongs to. */
export interface Owner {
  readonly site_id: SiteId
  readonly client_id: ClientId | null
}

/** What the token says about the caller. */
export interface Principal {
  readonly userId: UserId
  readonly admin: boolean
  readonly site: SiteId
  readonly client: ClientId | null
}

/** The caller of an operation: who, and in which scope. */
export interface Actor {
  readonly userId: UserId
  readonly admin: boolean
  readonly scope: Scope
}

/** The record a `site` header value names. */
export type ScopeTarget =
  | { readonly _tag: "Site"; readonly site: Site }
  | { readonly _tag: "Client"; readonly site: Site; readonly client: Client }

export const invalidSite = new Forbidden({ message: "Invalid site" })
export const adminRequired = new Forbidden({ message: "Admin rights required" })

/**
 * The scope a principal gets for the record its `site` header names. An admin may use any site
 * and any client; another user only its home site, or only its own client when it has one.
 */
export const resolveScope = (
  principal: Principal,
  target: ScopeTarget | undefined
): Either.Either<Scope, Forbidden> => {
  if (target === undefined) return Either.left(invalidSite)
  const scope: Scope = {
    site_id: target.site.site_id,
    fulfillment: target.site.fulfillment,
    client_id: target._tag === "Client" ? target.client.client_id : null
  }
  if (principal.admin) return Either.right(scope)
  if (scope.site_id !== principal.site) return Either.left(invalidSite)
  if (principal.client !== null && scope.client_id !== principal.client) return Either.left(invalidSite)
  return Either.right(scope)
}

/** Whether a record of `owner` may be read or changed in `scope`. */
export const canSee = (scope: Scope, owner: Owner): boolean =>
  owner.site_id === scope.site_id && (scope.client_id === null || owner.client_id === scope.client_id)

/** The owner of a record created in `scope`. */
export const ownerOf = (scope: Scope): Owner => ({ site_id: scope.site_id, client_id: scope.client_id })

/** Admin-only operations: fails with 403 `Admin rights required` for anyone else. */
export const requireAdmin = (actor: Pick<Actor, "admin">): Either.Either<void, Forbidden> =>
  actor.admin ? Either.void : Either.left(adminRequired)
