import { Administration, inWindow, SiteSettingsService } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
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
