import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { WarehouseApi } from "../Api.js"

export const SystemHandlers = HttpApiBuilder.group(WarehouseApi, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("health", () => Effect.as(Effect.orDie(sql`SELECT 1`), { status: "ok" as const }))
  }))
