/** effect 4.1 HttpApi, on Node 22 (what @effect/platform-node 4 declares). `node server.js <port>` */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer, Schema } from "effect"
import { HttpMiddleware, HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiError, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { createServer } from "node:http"
import { constant, orders } from "../routes.js"

const Line = Schema.Struct({ sku_id: Schema.String, qty: Schema.Int.check(Schema.isGreaterThan(0)) })

class Bench extends HttpApiGroup.make("bench")
  .add(
    HttpApiEndpoint.get("constant", "/constant", { success: Schema.Unknown }),
    HttpApiEndpoint.get("order", "/orders/:id", {
      params: { id: Schema.String },
      success: Schema.Unknown,
      error: HttpApiError.NotFound
    }),
    HttpApiEndpoint.post("create", "/orders", {
      payload: Schema.Struct({ order_id: Schema.String, lines: Schema.Array(Line) }),
      success: HttpApiSchema.NoContent
    })
  )
{}

class Api extends HttpApi.make("bench").add(Bench) {}

const handlers = HttpApiBuilder.group(Api, "bench", (h) =>
  h.handleAll({
    constant: () => Effect.succeed(constant),
    order: ({ params }) => {
      const order = orders.get(params.id)
      return order === undefined ? Effect.fail(new HttpApiError.NotFound()) : Effect.succeed(order)
    },
    create: () => Effect.void
  }))

// No access log: the others write none either.
HttpRouter.serve(HttpApiBuilder.layer(Api).pipe(Layer.provide(handlers)), { disableLogger: true }).pipe(
  // As the engine's bundled server: no spans.
  Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen, () => true)),
  Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.argv[2]), host: "127.0.0.1" })),
  Layer.launch,
  NodeRuntime.runMain
)
