import { HttpApiBuilder } from "@effect/platform"
import { Administration } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const AdminHandlers = HttpApiBuilder.group(WarehouseApi, "admin", (handlers) =>
  Effect.gen(function*() {
    const administration = yield* Administration
    return handlers
      .handle("listSites", () => Effect.flatMap(CurrentActor, administration.listSites))
      .handle("createSite", ({ payload }) => Effect.flatMap(CurrentActor, (actor) => administration.createSite(actor, payload)))
      .handle("listClients", () => Effect.flatMap(CurrentActor, administration.listClients))
      .handle("createClient", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => administration.createClient(actor, payload)))
      .handle("listUsers", () => Effect.flatMap(CurrentActor, administration.listUsers))
      .handle("createUser", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(administration.createUser(actor, payload))))
  }))
