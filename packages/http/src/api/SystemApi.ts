/**
 * Operational endpoints that need no token and no `site` header.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ok") }))
      .annotate(OpenApi.Description, "200 `{status: \"ok\"}` when the database answers.")
  )
  .annotate(OpenApi.Title, "System")
{}
