/**
 * The typed client against a running server: log in, write master data and an order, read it
 * back, and see an error come back as the engine's own error class, with its data. With the
 * bundled server running (`npm start`), run:
 * `WMS_PASSWORD=<the admin password> node examples/dist/client/client.js`.
 */
import { FetchHttpClient } from "@effect/platform"
import { NewOrder, SkuUpdate } from "@wms/core"
import { login } from "@wms/http/client"
import { Console, Effect } from "effect"
import { pathToFileURL } from "node:url"

/** Talks to the server at `baseUrl` as the given user, on site `main`. */
export const program = (options: { readonly baseUrl: string; readonly email: string; readonly password: string }) =>
  Effect.gen(function*() {
    const wms = yield* login({ ...options, site: "main" })
    // Every endpoint is a method of its group, with the payload and the result typed. A payload is
    // the schema's type: `make` fills in the defaults of the fields left out.
    yield* wms.skus.updateSku({ path: { id: "PEAR" }, payload: SkuUpdate.make({ description: "Pear" }) })
    const orderId = `SO-${Date.now()}`
    const payload = NewOrder.make({ order_id: orderId, lines: [{ sku_id: "PEAR", qty: 2 }] })
    yield* wms.orders.createOrder({ payload })
    const order = yield* wms.orders.getOrder({ path: { id: orderId } })
    yield* Console.log(`${order.order_id}: ${order.order_status_description}, ${order.lines.length} line(s)`)
    // A 404 arrives as `OrderNotFound` of @wms/core: the server's message, and the order id read back from it.
    const missing = yield* wms.orders.getOrder({ path: { id: "SO-MISSING" } }).pipe(
      Effect.as(undefined),
      Effect.catchTag("OrderNotFound", Effect.succeed)
    )
    yield* Console.log(missing === undefined ? "found?" : `${missing.orderId}: ${missing.message}`)
    return { order, missing }
  })

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  program({
    baseUrl: process.env.WMS_URL ?? "http://localhost:3000",
    email: process.env.WMS_EMAIL ?? "admin@example.com",
    password: process.env.WMS_PASSWORD ?? ""
  }).pipe(Effect.provide(FetchHttpClient.layer), Effect.runPromise).catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
}
