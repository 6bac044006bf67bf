/**
 * Acting in-process, without HTTP. Every service method takes the acting `Actor` first; over HTTP
 * the token and the `site` header make it, in-process these helpers do.
 *
 * Trust model: code in the same process as the engine is trusted like its database. It may act
 * as the system (`systemActor`: an admin that needs no password) or as a stored user without its
 * password (`userActor`: that user's rights, so a non-admin stays on its own site or client).
 * Both resolve the scope exactly as the `site` header does: a site id acts on the whole site, a
 * client id on that client's records only, and an unknown id fails with 403 `Invalid site`.
 * Passwords only matter where the caller is not trusted: `Administration.authenticate`.
 */
import { Effect, Option, ParseResult, Schema } from "effect"
import { InvalidInput, Unauthenticated } from "../shared/Errors.js"
import { SiteId, UserId } from "../shared/Ids.js"
import { Site } from "../shared/Site.js"
import { Transactor } from "../shared/Transactor.js"
import { Administration } from "./Administration.js"
import { SiteRepository } from "./SiteRepository.js"
import { normalizeEmail } from "./User.js"
import { UserRepository } from "./UserRepository.js"

/** The `userId` the system acts as (the `created_by` of what it creates) unless told otherwise. */
export const systemUserId = UserId.make("system")

/**
 * The actor of trusted in-process code: an admin acting on `target` (a site id, or a client id of
 * a fulfillment site), recorded as `userId` (default `system`). No password, no user record.
 */
export const systemActor = Effect.fnUntraced(function*(
  target: string,
  options: { readonly userId?: string } = {}
) {
  const administration = yield* Administration
  const userId = options.userId === undefined ? systemUserId : UserId.make(options.userId)
  // An admin's home site plays no part in its scope.
  return yield* administration.actorFor({ userId, admin: true, site: SiteId.make("system"), client: null }, target)
})

/**
 * The actor of a stored user on `target`, with that user's rights, without its password: for an
 * application that authenticated the person itself. An unknown e-mail: 401.
 */
export const userActor = Effect.fnUntraced(function*(email: string, target: string) {
  const users = yield* UserRepository
  const administration = yield* Administration
  const found = yield* users.findByEmail(normalizeEmail(email))
  if (Option.isNone(found)) return yield* new Unauthenticated({ message: `User ${normalizeEmail(email)} not found` })
  const { user } = found.value
  return yield* administration.actorFor(
    { userId: user.userId, admin: user.admin, site: user.site, client: user.client },
    target
  )
})

/**
 * Creates the site when no site or client has its id yet (not a fulfillment site, named after its
 * id); true when it did. Lets an embedding application start on an empty database.
 */
export const ensureSite = Effect.fnUntraced(function*(siteId: string) {
  const sites = yield* SiteRepository
  const { atomically } = yield* Transactor
  const id = yield* decodeInput(SiteId, siteId, "site")
  return yield* atomically(Effect.gen(function*() {
    if (Option.isSome(yield* sites.findTarget(id))) return false
    return yield* sites.insertSite(new Site({ site_id: id, name: id, fulfillment: false }))
  }))
})

/**
 * Decodes untrusted input with a write schema, failing as the API does: 400 `Missing field <path>`
 * or `Invalid field <path>: <reason>`, the path prefixed with `field` when given.
 */
export const decodeInput = <A, I>(schema: Schema.Schema<A, I>, input: unknown, field?: string) =>
  Effect.mapError(Schema.decodeUnknown(schema)(input), (error) => {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
    const path = [...(field === undefined ? [] : [field]), ...(issue?.path ?? []).map(String)].join(".")
    if (issue === undefined) return new InvalidInput({ message: error.message })
    if (path === "") return new InvalidInput({ message: `Invalid input: ${issue.message}` })
    return new InvalidInput({
      message: issue._tag === "Missing" ? `Missing field ${path}` : `Invalid field ${path}: ${issue.message}`
    })
  })
