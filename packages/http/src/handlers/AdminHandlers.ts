import { Administration, windowOf } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "./Table.js"

export const AdminTable = Effect.map(Administration, (administration) => ({
  listSites: (actor, { urlParams }) =>
    Effect.map(administration.listSites(actor), (items) => windowOf(items, urlParams)),
  createSite: (actor, { payload }) => administration.createSite(actor, payload),
  listClients: (actor, { urlParams }) =>
    Effect.map(administration.listClients(actor), (items) => windowOf(items, urlParams)),
  createClient: (actor, { payload }) => administration.createClient(actor, payload),
  listUsers: (actor, { urlParams }) =>
    Effect.map(administration.listUsers(actor), (items) => windowOf(items, urlParams)),
  createUser: (actor, { payload }) => administration.createUser(actor, payload),
  updateUser: (actor, { path, payload }) => administration.updateUser(actor, path.userId, payload),
  deleteUser: (actor, { path }) => administration.deleteUser(actor, path.userId)
} satisfies Table<"admin">))
