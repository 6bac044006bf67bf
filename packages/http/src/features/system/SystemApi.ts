/**
 * Operational endpoints that need no token and no `site` header.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Unavailable } from "../../api/Errors.js"

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .annotate(OpenApi.Summary, "Liveness")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ok") }))
      .addError(Unavailable)
      .annotate(
        OpenApi.Description,
        "Liveness: 200 `{status: \"ok\"}` when the database answers within 2 s, otherwise 503 " +
          "`{status: \"unavailable\", message}`."
      )
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .annotate(OpenApi.Summary, "Readiness")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ready") }))
      .addError(Unavailable)
      .annotate(
        OpenApi.Description,
        "Readiness, for a load balancer: 200 `{status: \"ready\"}` when the database answers and the server " +
          "takes work; 503 `{status: \"unavailable\", message}` when the database does not answer, and " +
          "`{status: \"stopping\", message}` once the server has begun to stop (SIGTERM or SIGINT)."
      )
  )
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "Liveness and readiness, without a token.")
{}
