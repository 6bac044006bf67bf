/**
 * Who owns a record written in a scope. A client scope owns what it writes; a site scope writes
 * records of the site, or of one of its clients when the body names one (`client_id`).
 */
import { Effect } from "effect"
import { invalidField } from "../shared/Errors.js"
import type { ClientId } from "../shared/Ids.js"
import type { Owner, Scope } from "../shared/Tenancy.js"
import { SiteRepository } from "./SiteRepository.js"

export const ownerForWrite = Effect.fnUntraced(function*(
  scope: Scope,
  requested: ClientId | null | undefined,
  field = "client_id"
) {
  if (requested === null || requested === undefined) {
    return { site_id: scope.site_id, client_id: scope.client_id } satisfies Owner
  }
  if (scope.client_id !== null) {
    if (requested !== scope.client_id) {
      return yield* invalidField(field, `must be ${scope.client_id}, the client of the site header`)
    }
    return { site_id: scope.site_id, client_id: scope.client_id } satisfies Owner
  }
  const sites = yield* SiteRepository
  if (!(yield* sites.clientOfSite(scope.site_id, requested))) {
    return yield* invalidField(field, `client ${requested} does not exist on site ${scope.site_id}`)
  }
  return { site_id: scope.site_id, client_id: requested } satisfies Owner
})
