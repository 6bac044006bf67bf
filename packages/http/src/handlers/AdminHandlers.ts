import { Administration, SiteSettingsService, windowOf } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "./Table.js"

export const AdminTable = Effect.map(
  Effect.all([Administration, SiteSettingsService]),
  ([administration, settings]) => ({
    listSites: (actor, { urlParams }) =>
      Effect.map(administration.listSites(actor), (items) => windowOf(items, urlParams)),
    createSite: (actor, { payload }) => administration.createSite(actor, payload),
    getSiteSettings: (actor, { path }) => settings.get(actor, path.id),
    updateSiteSettings: (actor, { path, payload }) => settings.update(actor, path.id, payload),
    listClients: (actor, { urlParams }) =>
      Effect.map(administration.listClients(actor), (items) => windowOf(items, urlParams)),
    createClient: (actor, { payload }) => administration.createClient(actor, payload),
    listUsers: (actor, { urlParams }) =>
      Effect.map(administration.listUsers(actor), (items) => windowOf(items, urlParams)),
    createUser: (actor, { payload }) => administration.createUser(actor, payload),
    updateUser: (actor, { path, payload }) => administration.updateUser(actor, path.userId, payload),
    deleteUser: (actor, { path }) => administration.deleteUser(actor, path.userId)
  } satisfies Table<"admin">)
)
