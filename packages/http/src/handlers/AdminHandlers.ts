import { HttpApiBuilder } from "@effect/platform"
import { Administration, windowOf } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const AdminHandlers = HttpApiBuilder.group(WarehouseApi, "admin", (handlers) =>
  Effect.gen(function*() {
    const administration = yield* Administration
    return handlers
      .handle("listSites", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(administration.listSites(actor), (items) => windowOf(items, urlParams))))
      .handle("createSite", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => administration.createSite(actor, payload)))
      .handle("listClients", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(administration.listClients(actor), (items) => windowOf(items, urlParams))))
      .handle("createClient", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => administration.createClient(actor, payload)))
      .handle("listUsers", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.map(administration.listUsers(actor), (items) => windowOf(items, urlParams))))
      .handle("createUser", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(administration.createUser(actor, payload))))
      .handle("updateUser", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => administration.updateUser(actor, path.userId, payload)))
      .handle("deleteUser", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => administration.deleteUser(actor, path.userId)))
  }))
