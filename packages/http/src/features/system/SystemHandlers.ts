import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Unavailable } from "../../api/Errors.js"
import { groupHandlers } from "../Feature.js"
import { Readiness } from "./Readiness.js"
import { SystemApi } from "./SystemApi.js"

export const SystemHandlers = groupHandlers(SystemApi)((handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const readiness = yield* Readiness
    // A database that is down may not even refuse: a query that hangs is as unavailable as one that fails.
    const databaseAnswers = sql`SELECT 1`.pipe(
      Effect.timeoutFail({ duration: "2 seconds", onTimeout: () => "timeout" }),
      Effect.mapError(() => new Unavailable({ status: "unavailable", message: "Database unavailable" }))
    )
    return handlers
      .handle("health", () => Effect.as(databaseAnswers, { status: "ok" as const }))
      .handle("ready", () =>
        Effect.gen(function*() {
          if (readiness.stopping) {
            return yield* new Unavailable({ status: "stopping", message: "Server is stopping" })
          }
          yield* databaseAnswers
          return { status: "ready" as const }
        }))
  })
)
