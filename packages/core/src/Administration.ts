/**
 * Administration of the installation: sites, clients and users, logging in, and the scope of a
 * request. Every operation but `authenticate`, `actorFor` and `bootstrap` is for admins only.
 */
import { Effect, Option } from "effect"
import { Conflict, InvalidInput, Unauthenticated } from "./Errors.js"
import { type SiteId, UserId } from "./Ids.js"
import { PasswordHasher } from "./PasswordHasher.js"
import { Client, type NewClient, type NewSite, Site } from "./Site.js"
import { SiteRepository } from "./SiteRepository.js"
import { type Actor, type Principal, requireAdmin, resolveScope } from "./Tenancy.js"
import { Transactor } from "./Transactor.js"
import { type NewUser, normalizeEmail, User } from "./User.js"
import { UserRepository } from "./UserRepository.js"

/** What an empty installation is seeded with. */
export interface BootstrapConfig {
  readonly siteId: SiteId
  readonly adminEmail: string
  /** When absent, a random password is generated and returned once. */
  readonly adminPassword: Option.Option<string>
}

/** The admin created by `bootstrap`, with its password when it was generated. */
export interface BootstrappedAdmin {
  readonly email: string
  readonly generatedPassword: Option.Option<string>
}

const wrongCredentials = new Unauthenticated({ message: "User/password not correct" })

const randomPassword = Effect.sync(() => globalThis.crypto.randomUUID().replaceAll("-", ""))

const newUserId = Effect.sync(() => UserId.make(globalThis.crypto.randomUUID()))

export class Administration extends Effect.Service<Administration>()("@wms/core/Administration", {
  effect: Effect.gen(function*() {
    const sites = yield* SiteRepository
    const users = yield* UserRepository
    const hasher = yield* PasswordHasher
    const { atomically } = yield* Transactor
    // Verifying against this hash when the e-mail is unknown keeps the answer time the same.
    const decoyHash = yield* hasher.hash("decoy password")

    const listSites = Effect.fnUntraced(function*(actor: Actor) {
      yield* requireAdmin(actor)
      return yield* sites.listSites
    })

    const createSite = Effect.fnUntraced(function*(actor: Actor, input: NewSite) {
      yield* requireAdmin(actor)
      const inserted = yield* sites.insertSite(new Site(input))
      if (!inserted) return yield* new Conflict({ message: `Site ${input.site_id} already exists` })
    }, atomically)

    const listClients = Effect.fnUntraced(function*(actor: Actor) {
      yield* requireAdmin(actor)
      return yield* sites.listClients(actor.scope.site_id)
    })

    const createClient = Effect.fnUntraced(function*(actor: Actor, input: NewClient) {
      yield* requireAdmin(actor)
      if (!actor.scope.fulfillment) {
        return yield* new Conflict({ message: `Site ${actor.scope.site_id} is not a fulfillment site` })
      }
      const inserted = yield* sites.insertClient(new Client({ ...input, site_id: actor.scope.site_id }))
      if (!inserted) return yield* new Conflict({ message: `Client ${input.client_id} already exists` })
    }, atomically)

    const listUsers = Effect.fnUntraced(function*(actor: Actor) {
      yield* requireAdmin(actor)
      return yield* users.list(actor.scope.site_id)
    })

    const insertUser = Effect.fnUntraced(function*(input: NewUser, passwordHash: string) {
      if (Option.isNone(yield* sites.findSite(input.site))) {
        return yield* new InvalidInput({ message: `site: site ${input.site} does not exist` })
      }
      if (input.client !== null && !(yield* sites.clientOfSite(input.site, input.client))) {
        return yield* new InvalidInput({ message: `client: client ${input.client} does not exist on site ${input.site}` })
      }
      const user = new User({
        userId: yield* newUserId,
        email: normalizeEmail(input.email),
        name: input.name,
        admin: input.admin,
        site: input.site,
        client: input.client
      })
      const inserted = yield* users.insert({ user, passwordHash })
      if (!inserted) return yield* new Conflict({ message: `User with email ${user.email} already exists` })
      return user
    }, atomically)

    const createUser = Effect.fnUntraced(function*(actor: Actor, input: NewUser) {
      yield* requireAdmin(actor)
      // Hash outside the transaction: it is slow on purpose and must not hold the store.
      const passwordHash = yield* hasher.hash(input.password)
      return yield* insertUser(input, passwordHash)
    })

    const authenticate = Effect.fnUntraced(function*(email: string, password: string) {
      const found = yield* users.findByEmail(normalizeEmail(email))
      const valid = yield* hasher.verify(password, Option.match(found, {
        onNone: () => decoyHash,
        onSome: (_) => _.passwordHash
      }))
      if (Option.isNone(found) || !valid) return yield* wrongCredentials
      const user = found.value.user
      const site = yield* Effect.flatMap(sites.findSite(user.site), Effect.orDieWith(() => `site of user ${user.userId}`))
      return { user, site }
    })

    const actorFor = Effect.fnUntraced(function*(principal: Principal, siteHeader: string) {
      const target = yield* sites.findTarget(siteHeader)
      const scope = yield* resolveScope(principal, Option.getOrUndefined(target))
      return { userId: principal.userId, admin: principal.admin, scope } satisfies Actor
    })

    const bootstrap = Effect.fnUntraced(function*(config: BootstrapConfig) {
      if ((yield* users.count) > 0) return Option.none<BootstrappedAdmin>()
      const generated = Option.isNone(config.adminPassword) ? Option.some(yield* randomPassword) : Option.none()
      const password = Option.getOrThrow(Option.orElse(config.adminPassword, () => generated))
      const passwordHash = yield* hasher.hash(password)
      return yield* atomically(Effect.gen(function*() {
        if (Option.isNone(yield* sites.findSite(config.siteId))) {
          yield* sites.insertSite(new Site({ site_id: config.siteId, name: config.siteId, fulfillment: false }))
        }
        // Two processes starting on one empty database: only one creates the admin.
        if ((yield* users.count) > 0) return Option.none<BootstrappedAdmin>()
        yield* insertUser({
          email: config.adminEmail,
          password,
          name: "Administrator",
          admin: true,
          site: config.siteId,
          client: null
        }, passwordHash)
        return Option.some<BootstrappedAdmin>({ email: normalizeEmail(config.adminEmail), generatedPassword: generated })
      }))
    })

    return {
      listSites,
      createSite,
      listClients,
      createClient,
      listUsers,
      createUser,
      authenticate,
      actorFor,
      bootstrap
    } as const
  })
}) {}
