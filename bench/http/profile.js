/**
 * The top frames of a V8 `.cpuprofile` (`node --cpu-prof`): self time per function, summed over
 * every node of the call tree that names the same function at the same place. Frames of the server
 * bundle are named by the module they were bundled from.
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

const place = ({ functionName, url, lineNumber }) =>
  `${functionName || "(anonymous)"} ${url === "" ? "" : locate(url, lineNumber)}`.trim()

/** The `count` functions with the most self time, each with its share of all samples. */
export const topFrames = (file, count = 15) => {
  const profile = JSON.parse(readFileSync(file, "utf8"))
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length)
  const self = new Map()
  let total = 0
  for (const node of profile.nodes) {
    if (node.hitCount === 0 || node.callFrame.functionName === "(idle)") continue
    const key = place(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + node.hitCount)
    total += node.hitCount
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, hits]) => ({ frame, self_ms: Math.round((hits * interval) / 1000), share: hits / total }))
}
