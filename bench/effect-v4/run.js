/**
 * The effect 4 spike (docs/EFFECT-V4.md): the same three routes (`routes.js`) served by bare
 * node:http, by effect 3.22's HttpApi (the engine's line) and by effect 4.1's HttpApi, each in its
 * own process, with autocannon driving 64 connections from another. `@effect/platform-node` 4
 * declares Node >= 22.19, which comes from the npm registry as a package (`v4/package.json`, installed here on first run, apart
 * from the workspace: the workspace keeps its one copy of effect 3). Bare node:http runs on both
 * Nodes, so each framework is compared with the limit of its own Node.
 *
 *   node bench/effect-v4/run.js [--duration 8] [--warmup 2]
 *
 * Prints a table and writes `bench/results/effect-v4.json`. Server CPU µs per request is the
 * figure least disturbed by a shared machine.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { freePort, load, machine, table } from "../common.js"
import { newOrder } from "./routes.js"

const here = fileURLToPath(new URL(".", import.meta.url))
const root = join(here, "..", "..")
const { values } = parseArgs({
  options: { duration: { type: "string", default: "8" }, warmup: { type: "string", default: "2" } }
})

const v4 = join(here, "v4")
if (!existsSync(join(v4, "node_modules", "effect"))) {
  console.log("Installing the spike's effect 4.1 and Node 22 into bench/effect-v4/v4/node_modules …")
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: v4, stdio: "inherit" })
}
const node22 = join(v4, "node_modules", ".bin", "node")
// The effect 3 side runs on the Node of the npm script (the one the root package.json pins).
const node3 = process.execPath
const version22 = execFileSync(node22, ["--version"]).toString().trim()
const versionOf = (node) => (node === node22 ? version22 : process.version)

const servers = [
  { name: "bare node:http", node: node3, file: join(here, "bare.js") },
  { name: "effect 3.22 HttpApi", node: node3, file: join(here, "v3.js") },
  { name: "bare node:http", node: node22, file: join(here, "bare.js") },
  { name: "effect 4.1 HttpApi", node: node22, file: join(v4, "server.js") }
]

const routes = [
  { name: "GET /constant", method: "GET", path: "/constant" },
  { name: "GET /orders/:id", method: "GET", path: "/orders/SO-7" },
  { name: "POST /orders", method: "POST", path: "/orders", body: JSON.parse(newOrder) }
]

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const measure = async (server, route) => {
  const port = await freePort()
  const child = spawn(server.node, [server.file, String(port)], { stdio: ["ignore", "ignore", "inherit"] })
  try {
    const url = `http://127.0.0.1:${port}`
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://127.0.0.1:${port}/constant`).then(() => true, () => false)) break
      await sleep(50)
    }
    const request = { url, method: route.method, path: route.path, body: route.body, prefix: "SO", connections: 64, headers: {} }
    await load({ ...request, durationS: Number(values.warmup) })
    const before = cpuMs(child.pid)
    const result = await load({ ...request, durationS: Number(values.duration) })
    const cpu = cpuMs(child.pid) - before
    return { reqPerSec: result.rps, cpuUsPerRequest: (cpu * 1000) / result.requests, non2xx: result.non2xx }
  } finally {
    child.kill()
  }
}

const rows = []
const results = { machine: machine(), nodes: { effect3: process.version, effect4: version22 }, routes: {} }
for (const route of routes) {
  const measured = []
  for (const server of servers) measured.push({ server, ...(await measure(server, route)) })
  results.routes[route.name] = measured.map(({ server, ...m }) => ({ server: server.name, node: versionOf(server.node), ...m }))
  for (const [i, m] of measured.entries()) {
    const bare = measured[i % 2 === 0 ? i : i - 1]
    rows.push([
      route.name,
      `${m.server.name} (Node ${versionOf(m.server.node)})`,
      Math.round(m.reqPerSec),
      m.cpuUsPerRequest.toFixed(0),
      i % 2 === 0 ? "" : `+${(m.cpuUsPerRequest - bare.cpuUsPerRequest).toFixed(0)}`,
      m.non2xx
    ])
  }
}
console.log(table(["route", "server", "req/s", "CPU µs/req", "over bare", "non-2xx"], rows))
writeFileSync(join(root, "bench", "results", "effect-v4.json"), `${JSON.stringify(results, null, 2)}\n`)
