/** The limit: node:http, no framework. `node bare.js <port>` */
import { createServer } from "node:http"
import { constant, orders } from "./routes.js"

const json = (response, status, body) => {
  const text = JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

createServer((request, response) => {
  if (request.method === "GET" && request.url === "/constant") return json(response, 200, constant)
  if (request.method === "GET" && request.url.startsWith("/orders/")) {
    const order = orders.get(decodeURIComponent(request.url.slice(8)))
    return order === undefined ? json(response, 404, { message: "not found" }) : json(response, 200, order)
  }
  if (request.method === "POST" && request.url === "/orders") {
    let text = ""
    request.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () => {
      const body = JSON.parse(text)
      const valid = typeof body.order_id === "string" && Array.isArray(body.lines) &&
        body.lines.every((l) => typeof l.sku_id === "string" && Number.isInteger(l.qty) && l.qty >= 1)
      if (!valid) return json(response, 400, { message: "invalid" })
      response.writeHead(204).end()
    })
    return
  }
  json(response, 404, { message: "not found" })
}).listen(Number(process.argv[2]), "127.0.0.1")
