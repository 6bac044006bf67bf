import { Administration, inWindow, SiteSettingsService } from "@wms/core"
import type { NewClient, NewSite, NewUser, SiteSettingsUpdate, UserChanges } from "@wms/core"
import { Effect } from "effect"
import { type Body, byText, everything } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { AdminApi } from "./AdminApi.js"

export const AdminTable = Effect.map(
  Effect.all([Administration, SiteSettingsService]),
  ([administration, settings]) => ({
    listSites: (actor, { urlParams }) => inWindow(administration.listSites(actor), urlParams),
    createSite: (actor, { payload }) => administration.createSite(actor, payload),
    getSiteSettings: (actor, { path }) => settings.getSiteSettings(actor, path.id),
    updateSiteSettings: (actor, { path, payload }) => settings.updateSiteSettings(actor, path.id, payload),
    listClients: (actor, { urlParams }) => inWindow(administration.listClients(actor), urlParams),
    createClient: (actor, { payload }) => administration.createClient(actor, payload),
    listUsers: (actor, { urlParams }) => inWindow(administration.listUsers(actor), urlParams),
    createUser: (actor, { payload }) => administration.createUser(actor, payload),
    updateUser: (actor, { path, payload }) => administration.updateUser(actor, path.userId, payload),
    deleteUser: (actor, { path }) => administration.deleteUser(actor, path.userId)
  } satisfies Table<typeof AdminApi>)
)

const byUser = (userId: string) => ({ path: { userId } })

/** The facade's methods of `admin`: how each one's arguments make its endpoint's input. */
export const AdminMethods = {
  listSites: everything,
  createSite: (payload: Body<typeof NewSite>) => ({ payload }),
  /** The site's settings (`putaway_on_receipt`, `count_variance_threshold`). */
  getSiteSettings: byText,
  /** Changes the settings present, keeps the others. */
  updateSiteSettings: (id: string, payload: Body<typeof SiteSettingsUpdate>) => ({ ...byText(id), payload }),
  listClients: everything,
  createClient: (payload: Body<typeof NewClient>) => ({ payload }),
  listUsers: everything,
  createUser: (payload: Body<typeof NewUser>) => ({ payload }),
  /** Changes the fields present; every change ends the user's tokens. */
  updateUser: (userId: string, payload: Body<typeof UserChanges>) => ({ ...byUser(userId), payload }),
  deleteUser: byUser
} satisfies Methods<typeof AdminApi>

export const AdminHandlers = { table: AdminTable, methods: AdminMethods }
