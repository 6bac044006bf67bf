/**
 * The floor of the HTTP benchmark: the three order endpoints as an `HttpApi` of @effect/platform on
 * its Node server, as the bundled server is served (no spans), but answered by the hand-written
 * statements of `store.js` with no engine, no token check and pass-through schemas. What it costs
 * is the framework's alone; the bundled server cannot beat it. `node bench/http/effect.js` with
 * `PORT` and `WMS_DATABASE_URL`.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpMiddleware,
  HttpServerResponse
} from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"
import { failureOf, openStore, validateOrder } from "./store.js"

const SiteHeader = Schema.Struct({ site: Schema.String })

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("orders")
    .add(HttpApiEndpoint.get("health", "/health").addSuccess(Schema.Unknown))
    .add(HttpApiEndpoint.get("listOrders", "/orders").setHeaders(SiteHeader).addSuccess(Schema.Unknown))
    .add(
      HttpApiEndpoint.get("getOrder", "/orders/:id")
        .setPath(Schema.Struct({ id: Schema.String }))
        .setHeaders(SiteHeader)
        .addSuccess(Schema.Unknown)
    )
    .add(HttpApiEndpoint.post("createOrder", "/orders").setHeaders(SiteHeader).setPayload(Schema.Unknown))
)

const store = openStore(process.env.WMS_DATABASE_URL)

/** A store call, its failure answered as `{message}` with its status. */
const answer = (call) =>
  Effect.tryPromise({ try: call, catch: (error) => error }).pipe(
    Effect.catchAll((error) => {
      const { status, body } = failureOf(error)
      return Effect.succeed(HttpServerResponse.unsafeJson(body, { status }))
    })
  )

const Orders = HttpApiBuilder.group(Api, "orders", (handlers) =>
  handlers
    .handle("health", () => Effect.succeed({ status: "ok" }))
    .handle("listOrders", ({ headers }) => answer(() => store.listOrders(headers.site)))
    .handle("getOrder", ({ headers, path }) => answer(() => store.getOrder(headers.site, path.id)))
    .handle("createOrder", ({ headers, payload }) =>
      answer(async () => store.createOrder(headers.site, validateOrder(payload)))))

const closeStore = Layer.scopedDiscard(Effect.addFinalizer(() => Effect.promise(() => store.close())))

HttpApiBuilder.serve().pipe(
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(Layer.setTracerEnabled(false)),
  Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(Orders))),
  Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" })),
  Layer.provide(closeStore),
  Layer.launch,
  NodeRuntime.runMain
)
