/**
 * What a user would otherwise write: the same three endpoints on Fastify, with JSON schemas for
 * the body (validated by Fastify) and the responses (serialized by fast-json-stringify), on the
 * hand-written statements of `store.js`, with no token check. `node bench/http/fastify.js` with
 * `PORT` and `WMS_DATABASE_URL`; prints `listening` when ready.
 */
import Fastify from "fastify"
import { nullable, order } from "./orderSchemas.js"
import { failureOf, openStore, validateOrder } from "./store.js"

const store = openStore(process.env.WMS_DATABASE_URL)

const message = { type: "object", properties: { message: { type: "string" } } }
const errors = { 400: message, 404: message, 409: message, 500: message }
const newOrder = {
  type: "object",
  required: ["order_id"],
  properties: {
    order_id: { type: "string", minLength: 1, maxLength: 100 },
    customer_id: nullable("integer"),
    carrier_id: nullable("integer"),
    order_date: nullable("string"),
    ship_by_date: nullable("string"),
    ship_dock: nullable("string"),
    lines: {
      type: "array",
      items: {
        type: "object",
        required: ["sku_id", "qty"],
        properties: { sku_id: { type: "string", minLength: 1 }, qty: { type: "integer", minimum: 1 } }
      }
    }
  }
}

const app = Fastify({ logger: false })

app.setErrorHandler((error, _request, reply) => {
  if (error.validation !== undefined) return reply.status(400).send({ message: error.message })
  const { status, body } = failureOf(error)
  return reply.status(status).send(body)
})

app.get("/health", async () => ({ status: "ok" }))
app.get(
  "/orders",
  { schema: { response: { 200: { type: "array", items: order }, ...errors } } },
  (request) => store.listOrders(request.headers.site)
)
app.get(
  "/orders/:id",
  { schema: { response: { 200: order, ...errors } } },
  (request) => store.getOrder(request.headers.site, request.params.id)
)
app.post("/orders", { schema: { body: newOrder, response: errors } }, async (request, reply) => {
  await store.createOrder(request.headers.site, validateOrder(request.body))
  return reply.status(204).send()
})

await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" })
console.log("listening")
process.on("SIGTERM", () => store.close().then(() => process.exit(0)))
