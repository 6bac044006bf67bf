/**
 * The warehouse API mounted under `/wms` in an application's own @effect/platform server, behind
 * the application's own authentication: an API key per site instead of the engine's JWTs. Run:
 * `node examples/dist/custom-server/server.js` after `npm run build`, then
 * `curl -H 'x-api-key: shop-key' localhost:3002/wms/orders`.
 */
import { HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { type Administration, ensureSite, systemActor, Unauthenticated } from "@wms/core"
import { HttpApiLive, Tokens, Warehouse } from "@wms/http"
import { Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { pathToFileURL } from "node:url"

/** The application's API keys and the site (or client) each one acts on. */
const apiKeys: Record<string, string> = { "shop-key": "main", "partner-key": "partner" }

/** The authorization hook: who a request acts as. The engine never sees a token. */
const authorization: HttpApiLive.Authorize<Administration> = (request) => {
  const site = apiKeys[request.headers["x-api-key"] ?? ""]
  if (site === undefined) return Effect.fail(new Unauthenticated({ message: "Missing or unknown x-api-key" }))
  // The application vouches for the caller: it acts as the system on that key's site.
  return systemActor(site, { userId: `api-key:${site}` })
}

/** The application's router: its own page, and the warehouse API under `/wms`. */
const router = Effect.map(HttpApiLive.httpApp({ authorization }), (wms) =>
  HttpRouter.empty.pipe(
    HttpRouter.get("/", HttpServerResponse.text("The shop's own home page")),
    HttpRouter.mountApp("/wms", wms)
  ))

/** Creates the sites the keys act on, on an empty database. */
const seed = Layer.effectDiscard(Effect.orDie(Effect.all([ensureSite("main"), ensureSite("partner")])))

/** The application on whatever `HttpServer` is provided. */
export const app = (database: string) =>
  Layer.unwrapScoped(Effect.map(router, (routes) => HttpServer.serve(routes))).pipe(
    Layer.provide(seed),
    // /login and /verifytoken still work with the engine's users; their key lives in the database.
    Layer.provide(Tokens.layer(Option.none())),
    Layer.provideMerge(Warehouse.layer({ database }))
  )

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  app("sqlite::memory:").pipe(
    HttpServer.withLogAddress,
    Layer.provide(NodeHttpServer.layer(createServer, { port: 3002 })),
    Layer.launch,
    NodeRuntime.runMain
  )
}
