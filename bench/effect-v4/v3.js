/** effect 3.22 HttpApi (the engine's line, from the workspace's install). `node v3.js <port>` */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiError, HttpApiGroup, HttpMiddleware } from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"
import { constant, orders } from "./routes.js"

const Line = Schema.Struct({ sku_id: Schema.String, qty: Schema.Int.pipe(Schema.positive()) })

class Bench extends HttpApiGroup.make("bench")
  .add(HttpApiEndpoint.get("constant", "/constant").addSuccess(Schema.Unknown))
  .add(
    HttpApiEndpoint.get("order", "/orders/:id")
      .setPath(Schema.Struct({ id: Schema.String }))
      .addSuccess(Schema.Unknown)
      .addError(HttpApiError.NotFound)
  )
  .add(
    HttpApiEndpoint.post("create", "/orders")
      .setPayload(Schema.Struct({ order_id: Schema.String, lines: Schema.Array(Line) }))
      .addSuccess(Schema.Void, { status: 204 })
  )
{}

class Api extends HttpApi.make("bench").add(Bench) {}

const handlers = HttpApiBuilder.group(Api, "bench", (h) =>
  h.handle("constant", () => Effect.succeed(constant))
    .handle("order", ({ path }) => {
      const order = orders.get(path.id)
      return order === undefined ? Effect.fail(new HttpApiError.NotFound()) : Effect.succeed(order)
    })
    .handle("create", () => Effect.void))

HttpApiBuilder.serve().pipe(
  // As the engine's bundled server: no spans.
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(Layer.setTracerEnabled(false)),
  Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(handlers))),
  Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.argv[2]), host: "127.0.0.1" })),
  Layer.launch,
  NodeRuntime.runMain
)
