/**
 * The limit of the HTTP benchmark: a bare `node:http` server answering `GET /orders/:id`,
 * `GET /orders` and `POST /orders` from the hand-written statements of `store.js`, with no token
 * check. `node bench/http/bare.js` with `PORT` and `WMS_DATABASE_URL`; prints `listening` when ready.
 */
import { createServer } from "node:http"
import { failureOf, invalid, openStore, validateOrder } from "./store.js"

const store = openStore(process.env.WMS_DATABASE_URL)

const send = (response, status, body) => {
  const text = JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

const readJson = (request) =>
  new Promise((resolve, reject) => {
    const chunks = []
    request.on("data", (chunk) => chunks.push(chunk))
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch {
        reject(invalid("Request body is not valid JSON"))
      }
    })
    request.on("error", reject)
  })

const route = async (request) => {
  const site = request.headers.site
  const path = request.url.split("?")[0]
  if (request.method === "GET" && path === "/orders") return { status: 200, body: await store.listOrders(site) }
  if (request.method === "POST" && path === "/orders") {
    await store.createOrder(site, validateOrder(await readJson(request)))
    return { status: 204 }
  }
  if (request.method === "GET" && path.startsWith("/orders/") && path.indexOf("/", 8) < 0) {
    return { status: 200, body: await store.getOrder(site, decodeURIComponent(path.slice(8))) }
  }
  if (request.method === "GET" && path === "/health") return { status: 200, body: { status: "ok" } }
  return { status: 404, body: { message: `Route ${request.method} ${path} not found` } }
}

const server = createServer((request, response) => {
  route(request).then(
    ({ status, body }) => {
      if (body === undefined) {
        response.writeHead(status)
        response.end()
      } else send(response, status, body)
    },
    (error) => {
      const { status, body } = failureOf(error)
      send(response, status, body)
    }
  )
})

server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
process.on("SIGTERM", () => store.close().then(() => process.exit(0)))
