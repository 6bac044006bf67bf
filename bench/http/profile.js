/**
 * Reading a V8 `.cpuprofile` (`node --cpu-prof`): the top frames (self time per function, summed
 * over every node of the call tree that names the same function at the same place), and the self
 * time per part of the process (effect's runtime, the server's own code, the driver, Node). Frames
 * of the server bundle are named by the module they were bundled from.
 */
import { readFileSync } from "node:fs"
import { relative } from "node:path"

// esbuild starts each module of a bundle with a `// <path>` comment: the first line of each, in order.
const modulesOfBundle = new Map()
const modulesOf = (file) => {
  if (!modulesOfBundle.has(file)) {
    const starts = []
    readFileSync(file, "utf8").split("\n").forEach((text, index) => {
      if (text.startsWith("// ") && /\.[cm]?js$/.test(text)) starts.push({ line: index, path: text.slice(3) })
    })
    modulesOfBundle.set(file, starts)
  }
  return modulesOfBundle.get(file)
}

/** The file and line of a frame; in a bundle, the module it came from and the line in the bundle. */
const locate = (url, lineNumber) => {
  const file = url.replace(/^file:\/\//, "")
  if (!file.endsWith(".bundle.js")) return `${relative(process.cwd(), file)}:${lineNumber + 1}`
  const module = modulesOf(file).findLast((start) => start.line <= lineNumber)
  return `${module?.path ?? relative(process.cwd(), file)} (bundle:${lineNumber + 1})`
}

/** The module of a frame: its path, or in a bundle the path of the module it was bundled from. */
const moduleOf = (url, lineNumber) => {
  const file = url.replace(/^file:\/\//, "")
  if (!file.endsWith(".bundle.js")) return relative(process.cwd(), file)
  return modulesOf(file).findLast((start) => start.line <= lineNumber)?.path ?? relative(process.cwd(), file)
}

const place = ({ functionName, url, lineNumber }) =>
  `${functionName || "(anonymous)"} ${url === "" ? "" : locate(url, lineNumber)}`.trim()

/** The samples of a profile's busy frames (not idle), summed per `keyOf` their call frame, and in all. */
const samplesBy = (profile, keyOf) => {
  const self = new Map()
  let total = 0
  for (const node of profile.nodes) {
    if (node.hitCount === 0 || node.callFrame.functionName === "(idle)") continue
    const key = keyOf(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + node.hitCount)
    total += node.hitCount
  }
  return { entries: [...self.entries()].sort((a, b) => b[1] - a[1]), total }
}

/** The `count` functions with the most self time, each with its share of all samples. */
export const topFrames = (file, count = 15) => {
  const profile = JSON.parse(readFileSync(file, "utf8"))
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length)
  const { entries, total } = samplesBy(profile, place)
  return entries
    .slice(0, count)
    .map(([frame, hits]) => ({ frame, self_ms: Math.round((hits * interval) / 1000), share: hits / total }))
}

/**
 * The part of the process a frame belongs to. A native function called from JavaScript (a SQLite
 * statement, `JSON.stringify`) is booked by V8 to its caller, so SQLite's own work falls in the code
 * that runs the statement, the server's or the peer's; code made at run time (fast-json-stringify's
 * serializers) has no file, and falls with the natives that have none either.
 */
const partOf = ({ functionName, url, lineNumber }) => {
  if (url === "") {
    return functionName === "(program)" || functionName === "(garbage collector)"
      ? "V8: (program) and garbage collection"
      : "natives and generated code (socket writes, buffers, compiled serializers)"
  }
  const module = moduleOf(url, lineNumber)
  if (/node_modules\/(effect|@effect)\//.test(module)) return "effect and @effect (runtime, schema, platform)"
  if (/node_modules\/(pg|pg-\w+|postgres-\w+|better-sqlite3)\//.test(module)) return "database driver (JavaScript)"
  if (/node_modules\/(fastify|@fastify|find-my-way|fast-json-stringify|pino|avvio|light-my-request)/.test(module)) {
    return "Fastify and pino"
  }
  if (module.startsWith("node:")) return "Node (HTTP, streams, timers)"
  if (module.startsWith("packages/")) return "engine code (and the SQLite work it runs)"
  if (module.startsWith("bench/")) return "peer code (and the SQLite work it runs)"
  return "other packages and start-up"
}

/** Self time per part of the process (`partOf`), in µs per request for a process that spent `cpuMicros` per request. */
export const costByPart = (file, cpuMicros) => {
  const { entries, total } = samplesBy(JSON.parse(readFileSync(file, "utf8")), partOf)
  return Object.fromEntries(entries.map(([part, hits]) => [part, Math.round((hits / total) * cpuMicros)]))
}
