/**
 * Mounting the warehouse API in an application's own @effect/platform server, next to the
 * application's own routes. Run: `node examples/dist/embedded/mounted.js` after `npm run build`.
 */
import { HttpApiBuilder, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { HttpApiLive, Tokens, Warehouse } from "@wms/http"
import { Layer, Option } from "effect"
import { createServer } from "node:http"
import { pathToFileURL } from "node:url"

/** A route of the application itself, served by the same router as the warehouse API. */
const appRoutes = HttpApiBuilder.Router.use((router) =>
  router.get("/hello", HttpServerResponse.unsafeJson({ message: "Hello from the application" }))
)

/** The warehouse API and the application's routes, on whatever `HttpServer` is provided. */
export const app = (database: string) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(appRoutes),
    Layer.provide(HttpApiLive.layer),
    Layer.provide(Tokens.layer(Option.none())),
    Layer.provide(Warehouse.layer({ database }))
  )

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  app("sqlite:./data/mounted.db").pipe(
    HttpServer.withLogAddress,
    Layer.provide(NodeHttpServer.layer(createServer, { port: 3001 })),
    Layer.launch,
    NodeRuntime.runMain
  )
}
