/**
 * Counts the steps of effect's run loop per request on the three hot routes (`GET /orders/:id`,
 * `GET /orders`, `POST /orders`) of the server (`packages/http/dist/server/Server.js`, the modules the
 * bundle is made of), in this process, and names the busiest kinds of step. Unlike CPU time, the
 * count does not move with the machine's load, so it shows at once what a change to the request's
 * path saves.
 *
 *   node bench/http/steps.js [--stores sqlite,postgres] [--requests 500] [--top 0]
 *
 * Every instruction handler of effect's fiber runtime is wrapped to count its runs (background
 * fibers included, as the webhook worker's), while `--requests` sequential requests per route run
 * after 20 orders written as warm-up; `--top N` lists the N most frequent steps per route, each
 * named by its instruction and the function it runs. Needs the build (`npm run build`).
 */
import { Effect, Fiber, Layer, Logger, LogLevel } from "effect"
import { parseArgs } from "node:util"
import { serverConfig } from "../../packages/http/dist/server/Config.js"
import * as Server from "../../packages/http/dist/server/Server.js"
import { freePort, freshDatabase, request, table } from "../common.js"

const { values } = parseArgs({
  options: {
    stores: { type: "string", default: "sqlite,postgres" },
    requests: { type: "string", default: "500" },
    top: { type: "string", default: "0" }
  }
})

// The fiber runtime's class is not exported: it is the prototype of any fiber.
const fiberRuntime = Object.getPrototypeOf(Effect.runFork(Effect.void))
const instructions = [
  "Sync",
  "Async",
  "OnSuccess",
  "OnFailure",
  "OnSuccessAndFailure",
  "Success",
  "Failure",
  "Commit",
  "WithRuntime",
  "Iterator",
  "Yield",
  "UpdateRuntimeFlags",
  "While",
  "Tag",
  "Left",
  "Right",
  "Some",
  "None"
]
let counting = false
const steps = new Map()
const nameOf = (instruction) => {
  const f = instruction.effect_instruction_i1 ?? instruction.effect_instruction_i0
  const source = typeof f === "function" ? f.name || f.toString().replace(/\s+/g, " ").slice(0, 80) : ""
  return `${instruction._op} ${source}`.trim()
}
for (const instruction of instructions) {
  const handler = fiberRuntime[instruction]
  if (typeof handler !== "function") continue
  fiberRuntime[instruction] = function(current) {
    if (counting) {
      const name = nameOf(current)
      steps.set(name, (steps.get(name) ?? 0) + 1)
    }
    return handler.call(this, current)
  }
}

const adminPassword = "steps-admin-password"
const requests = Number(values.requests)

/** The steps per request of `send`, run `requests` times one after another. */
const countSteps = async (send) => {
  steps.clear()
  counting = true
  for (let i = 0; i < requests; i++) await send(i)
  counting = false
  const total = [...steps.values()].reduce((sum, n) => sum + n, 0)
  return { perRequest: total / requests, top: [...steps].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)) }
}

const countStore = async (store) => {
  const database = await freshDatabase(store, "steps")
  const port = await freePort()
  Object.assign(process.env, {
    PORT: String(port),
    WMS_DATABASE_URL: database.url,
    WMS_ADMIN_PASSWORD: adminPassword,
    WMS_ACCESS_LOG: "false",
    WMS_PASSWORD_HASH_COST: "14"
  })
  const config = await Effect.runPromise(serverConfig)
  const server = Effect.runFork(
    Layer.launch(Server.layer(config)).pipe(Logger.withMinimumLogLevel(LogLevel.Warning))
  )
  try {
    const baseUrl = `http://127.0.0.1:${port}`
    for (let tries = 0; tries < 100; tries++) {
      if (await fetch(`${baseUrl}/health`).then((response) => response.ok, () => false)) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const expect = async (answer) => {
      const { status, body, text } = await answer
      if (status >= 300) throw new Error(`${status} ${text}`)
      return body
    }
    const { token } = await expect(
      request(baseUrl, "POST", "/login", { body: { email: "admin@example.com", password: adminPassword } })
    )
    const call = (method, path, body) => expect(request(baseUrl, method, path, { token, body }))
    await call("POST", "/customers", { name: "Steps Customer", town: "Utrecht" })
    await call("POST", "/carriers", { name: "Steps Carrier" })
    for (const sku_id of ["A", "B", "C"]) await call("POST", "/skus", { sku_id, description: sku_id })
    const [customer] = await call("GET", "/customers")
    const [carrier] = await call("GET", "/carriers")
    const order = (order_id) => ({
      order_id,
      customer_id: customer.id,
      carrier_id: carrier.id,
      order_date: "2026-01-02",
      ship_by_date: "2026-01-05",
      ship_dock: "D1",
      lines: [{ sku_id: "A", qty: 1 }, { sku_id: "B", qty: 2 }, { sku_id: "C", qty: 3 }]
    })
    for (let i = 0; i < 20; i++) await call("POST", "/orders", order(`WARM-${i}`))
    return [
      ["GET /orders/:id", await countSteps(() => call("GET", "/orders/WARM-5"))],
      ["GET /orders", await countSteps(() => call("GET", "/orders"))],
      ["POST /orders", await countSteps((i) => call("POST", "/orders", order(`STEPS-${i}`)))]
    ]
  } finally {
    await Effect.runPromise(Fiber.interrupt(server))
    await database.drop()
  }
}

const rows = []
for (const store of values.stores.split(",")) {
  for (const [route, { perRequest, top }] of await countStore(store)) {
    rows.push([store, route, perRequest.toFixed(1)])
    for (const [name, count] of top) {
      console.log(`${store} ${route}  ${(count / requests).toFixed(2).padStart(6)}  ${name}`)
    }
  }
}
console.log(table(["store", "route", "steps/request"], rows))
process.exit(0)
