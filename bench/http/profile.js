/**
 * The top frames of a V8 `.cpuprofile` (`node --cpu-prof`): self time per function, summed over
 * every node of the call tree that names the same function at the same place.
 */
import { readFileSync } from "node:fs"
import { relative } from "node:path"

const place = ({ functionName, url, lineNumber }) => {
  const file = url === "" ? "" : relative(process.cwd(), url.replace(/^file:\/\//, ""))
  return `${functionName || "(anonymous)"} ${file === "" ? "" : `${file}:${lineNumber + 1}`}`.trim()
}

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
