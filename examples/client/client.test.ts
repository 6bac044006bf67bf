import { FetchHttpClient, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import { OrderNotFound } from "@wms/core"
import { Server } from "@wms/http"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { adminEmail, adminPassword, testConfig } from "../../testing/server.js"
import { program } from "./client.js"

// The bundled server on a real port, as `npm start` runs it.
const server = Server.app(testConfig("sqlite::memory:")).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

describe("the typed client", () => {
  layer(server, { excludeTestServices: true })((it) => {
    it.effect("calls the bundled server with full types and gets the core's errors back", () =>
      Effect.gen(function*() {
        const { address } = yield* HttpServer.HttpServer
        assert.strictEqual(address._tag, "TcpAddress")
        const port = address._tag === "TcpAddress" ? address.port : 0
        const baseUrl = `http://127.0.0.1:${port}`
        const { order, missing } = yield* program({ baseUrl, email: adminEmail, password: adminPassword }).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
        assert.strictEqual(order.order_status_description, "Released")
        assert.deepStrictEqual(order.lines.map((line) => [line.sku_id, line.qty]), [["PEAR", 2]])
        assert.instanceOf(missing, OrderNotFound)
        assert.strictEqual(missing?.orderId, "SO-MISSING")
        assert.strictEqual(missing?.message, "Order with OrderID SO-MISSING not found")
      }))
  })
})
