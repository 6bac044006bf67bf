/**
 * Administration of the installation: sites, clients and users, logging in, and the scope of a
 * request. Every operation but `authenticate`, `actorFor` and `bootstrap` is for admins only.
 */
import { Clock, Effect, Option } from "effect"
import { invalidField, InvalidInput, Unauthenticated } from "../shared/Errors.js"
import { type ClientId, type SiteId, UserId } from "../shared/Ids.js"
import { Client, type NewClient, type NewSite, Site } from "../shared/Site.js"
import { type Actor, type Principal, requireAdmin, resolveScope } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import { ClientExists, LastActiveAdmin, NotFulfillmentSite, SiteExists, UserExists, UserNotFound } from "./Errors.js"
import { PasswordHasher } from "./PasswordHasher.js"
import { SiteRepository } from "./SiteRepository.js"
import {
  type NewUser,
  normalizeEmail,
  type PasswordChange,
  User,
  type UserChanges,
  type UserWithCredentials
} from "./User.js"
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
const endedSession = new Unauthenticated({ message: "Authorization token not valid" })

/**
 * How long the state of a token's user (active, token version) is trusted without reading it
 * again. A change made through this process shows at once; one made by another process on the
 * same database within this time.
 */
export const sessionCacheMillis = 5_000

interface Session {
  readonly active: boolean
  readonly tokenVersion: number
  readonly readAt: number
}

const isActiveAdmin = (user: User) => user.admin && user.active

const randomPassword = Effect.sync(() => globalThis.crypto.randomUUID().replaceAll("-", ""))

const newUserId = Effect.sync(() => UserId.make(globalThis.crypto.randomUUID()))

export class Administration extends Effect.Service<Administration>()("@wms/core/Administration", {
  effect: Effect.gen(function*() {
    const sites = yield* SiteRepository
    const users = yield* UserRepository
    const hasher = yield* PasswordHasher
    const { atomically } = yield* Transactor
    // Verifying against this hash when the e-mail is unknown keeps the answer time the same. Made
    // at the first such login: a hash of OWASP's cost takes a third of a second.
    const decoyHash = yield* Effect.cached(hasher.hash("decoy password"))
    const sessions = new Map<string, Session>()

    const listSites = Effect.fnUntraced(function*(actor: Actor) {
      yield* requireAdmin(actor)
      return yield* sites.listSites
    })

    const createSite = Effect.fnUntraced(function*(actor: Actor, input: NewSite) {
      yield* requireAdmin(actor)
      const inserted = yield* sites.insertSite(new Site(input))
      if (!inserted) return yield* new SiteExists({ siteId: input.site_id })
    }, atomically)

    const listClients = Effect.fnUntraced(function*(actor: Actor) {
      yield* requireAdmin(actor)
      return yield* sites.listClients(actor.scope.site_id)
    })

    const createClient = Effect.fnUntraced(function*(actor: Actor, input: NewClient) {
      yield* requireAdmin(actor)
      if (!actor.scope.fulfillment) {
        return yield* new NotFulfillmentSite({ siteId: actor.scope.site_id })
      }
      const inserted = yield* sites.insertClient(new Client({ ...input, site_id: actor.scope.site_id }))
      if (!inserted) return yield* new ClientExists({ clientId: input.client_id })
    }, atomically)

    const listUsers = Effect.fnUntraced(function*(actor: Actor) {
      yield* requireAdmin(actor)
      return yield* users.list(actor.scope.site_id)
    })

    const checkHome = Effect.fnUntraced(function*(site: SiteId, client: ClientId | null) {
      if (Option.isNone(yield* sites.findSite(site))) {
        return yield* new InvalidInput({ message: `site: site ${site} does not exist` })
      }
      if (client !== null && !(yield* sites.clientOfSite(site, client))) {
        return yield* new InvalidInput({ message: `client: client ${client} does not exist on site ${site}` })
      }
    })

    const insertUser = Effect.fnUntraced(function*(input: NewUser, passwordHash: string) {
      yield* checkHome(input.site, input.client)
      const user = new User({
        userId: yield* newUserId,
        email: normalizeEmail(input.email),
        name: input.name,
        admin: input.admin,
        site: input.site,
        client: input.client,
        active: true
      })
      const inserted = yield* users.insert({ user, passwordHash, tokenVersion: 0 })
      if (!inserted) return yield* new UserExists({ email: user.email })
      return user
    }, atomically)

    const createUser = Effect.fnUntraced(function*(actor: Actor, input: NewUser) {
      yield* requireAdmin(actor)
      // Hash outside the transaction: it is slow on purpose and must not hold the store.
      const passwordHash = yield* hasher.hash(input.password)
      return yield* insertUser(input, passwordHash)
    })

    const storedUser = Effect.fnUntraced(function*(userId: string) {
      const found = yield* users.findById(UserId.make(userId))
      if (Option.isNone(found)) return yield* new UserNotFound({ userId })
      return found.value
    })

    /** Writes a changed user and ends its tokens; the last active admin stays one. */
    const saveChanged = Effect.fnUntraced(function*(before: UserWithCredentials, user: User, passwordHash: string) {
      if (isActiveAdmin(before.user) && !isActiveAdmin(user) && (yield* users.activeAdmins) <= 1) {
        return yield* new LastActiveAdmin({ userId: user.userId })
      }
      const updated = yield* users.update({ user, passwordHash, tokenVersion: before.tokenVersion + 1 })
      if (!updated) return yield* new UserExists({ email: user.email })
    })

    // After the commit: a request that reads the user before it would otherwise keep the old state.
    const forgetSession = (userId: string) => Effect.sync(() => sessions.delete(userId))

    const updateUser = Effect.fnUntraced(function*(actor: Actor, userId: string, changes: UserChanges) {
      yield* requireAdmin(actor)
      const newHash = changes.password === undefined ? undefined : yield* hasher.hash(changes.password)
      yield* atomically(Effect.gen(function*() {
        const before = yield* storedUser(userId)
        const user = new User({
          ...before.user,
          email: changes.email === undefined ? before.user.email : normalizeEmail(changes.email),
          name: changes.name ?? before.user.name,
          admin: changes.admin ?? before.user.admin,
          site: changes.site ?? before.user.site,
          client: changes.client === undefined ? before.user.client : changes.client,
          active: changes.active ?? before.user.active
        })
        yield* checkHome(user.site, user.client)
        yield* saveChanged(before, user, newHash ?? before.passwordHash)
      }))
      yield* forgetSession(userId)
    })

    const deleteUser = Effect.fnUntraced(function*(actor: Actor, userId: string) {
      yield* requireAdmin(actor)
      yield* atomically(Effect.gen(function*() {
        const user = (yield* storedUser(userId)).user
        if (isActiveAdmin(user) && (yield* users.activeAdmins) <= 1) {
          return yield* new LastActiveAdmin({ userId: user.userId })
        }
        yield* users.remove(user.userId)
      }))
      yield* forgetSession(userId)
    })

    /** A user's own change of password, with the current one; it ends the user's tokens, this one too. */
    const changePassword = Effect.fnUntraced(function*(principal: Principal, change: PasswordChange) {
      const before = yield* storedUser(principal.userId)
      if (!(yield* hasher.verify(change.current_password, before.passwordHash))) {
        return yield* invalidField("current_password", "is not correct")
      }
      const passwordHash = yield* hasher.hash(change.new_password)
      // Only the hash and the token version change: the e-mail and the admin rights stay, so neither
      // rule of `saveChanged` can refuse the write.
      yield* atomically(
        Effect.flatMap(
          storedUser(principal.userId),
          (current) => users.update({ user: current.user, passwordHash, tokenVersion: current.tokenVersion + 1 })
        )
      )
      yield* forgetSession(principal.userId)
    })

    const authenticate = Effect.fnUntraced(function*(email: string, password: string) {
      const found = yield* users.findByEmail(normalizeEmail(email))
      const valid = yield* hasher.verify(password, Option.isSome(found) ? found.value.passwordHash : yield* decoyHash)
      if (Option.isNone(found) || !valid || !found.value.user.active) return yield* wrongCredentials
      const { passwordHash, tokenVersion, user } = found.value
      if (hasher.needsRehash(passwordHash)) {
        const upgraded = yield* hasher.hash(password)
        // Only if nothing changed meanwhile: a concurrent change keeps its own hash.
        yield* atomically(Effect.gen(function*() {
          const current = yield* users.findById(user.userId)
          if (Option.isSome(current) && current.value.passwordHash === passwordHash) {
            yield* users.update({ ...current.value, passwordHash: upgraded })
          }
        }))
      }
      const site = yield* Effect.flatMap(
        sites.findSite(user.site),
        Effect.orDieWith(() => `site of user ${user.userId}`)
      )
      return { user, site, tokenVersion }
    })

    /**
     * Whether a token of `userId` issued at `tokenVersion` still stands: the user exists, is
     * active, and has not changed since. Cheap: the user's state is read at most every
     * `sessionCacheMillis`.
     */
    const checkSession = Effect.fnUntraced(function*(userId: UserId, tokenVersion: number) {
      const now = yield* Clock.currentTimeMillis
      let session = sessions.get(userId)
      if (session === undefined || now - session.readAt >= sessionCacheMillis) {
        const found = yield* users.findById(userId)
        if (Option.isNone(found)) {
          sessions.delete(userId)
          return yield* endedSession
        }
        session = { active: found.value.user.active, tokenVersion: found.value.tokenVersion, readAt: now }
        if (sessions.size >= 10_000) sessions.delete(sessions.keys().next().value!)
        sessions.set(userId, session)
      }
      if (!session.active || session.tokenVersion !== tokenVersion) return yield* endedSession
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
        return Option.some<BootstrappedAdmin>({
          email: normalizeEmail(config.adminEmail),
          generatedPassword: generated
        })
      }))
    })

    return {
      listSites,
      createSite,
      listClients,
      createClient,
      listUsers,
      createUser,
      updateUser,
      deleteUser,
      changePassword,
      authenticate,
      checkSession,
      actorFor,
      bootstrap
    } as const
  })
}) {}
