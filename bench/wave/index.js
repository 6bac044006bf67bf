/**
 * The wave benchmark: for each store and size, one seeded template database, then the engine
 * and the raw-SQL lower bound each on a fresh copy of it, each in its own child process,
 * alternating. Times are medians, the peak RSS the highest of the runs; the ratio is engine / lower
 * bound, its spread the lowest and highest of the per-pair ratios, with the machine's load as the
 * runs started.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { median, spreadOf } from "../common.js"
import { runChild, templateStores } from "../templates.js"
import { generate, seedPg, seedSqlite } from "./data.js"

const here = fileURLToPath(new URL(".", import.meta.url))

const stores = templateStores({ sqlite: seedSqlite, postgres: seedPg })

/** The functions with the most self time in a `--cpu-prof` profile, with their milliseconds. */
export const topFrames = (file, count = 12) => {
  const profile = JSON.parse(readFileSync(file, "utf8"))
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length)
  const self = new Map()
  for (const { callFrame, hitCount } of profile.nodes) {
    if (hitCount === 0 || callFrame.functionName === "(idle)") continue
    const file = callFrame.url.replace(/^.*\/(node_modules|packages)\//, "")
    const place = file === "" ? "" : ` ${file}:${callFrame.lineNumber + 1}`
    const frame = `${callFrame.functionName || "(anonymous)"}${place}`
    self.set(frame, (self.get(frame) ?? 0) + hitCount)
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([frame, hits]) => ({ frame, self_ms: Math.round((hits * interval) / 1000) }))
}

const sameCounts = (a, b) => Object.keys(a).every((key) => a[key] === b[key])

/** Rows a start writes: claimsets, claims, Allocate transactions, contents, order statuses, wave, events. */
const rowsOfStart = (c) => c.claimsets + c.claims + c.transactions + c.contents + c.wave_orders + 1 + c.events

/**
 * Measures every store × size, `repeat(lines)` times each; with `profileDir` the engine children
 * write `--cpu-prof` profiles there. Answers one row per store and size.
 */
export const runWaveBench = async ({ storeNames, sizes, repeat, profileDir, log }) => {
  const folder = mkdtempSync(join(tmpdir(), "wms-bench-"))
  const prefix = `wms_bench_${process.pid}`
  const rows = []
  try {
    for (const storeName of storeNames) {
      const store = stores[storeName](folder, prefix)
      for (const lines of sizes) {
        log(`wave ${storeName} ${lines} lines: seeding`)
        const template = await store.template(`seed_${lines}`, generate(lines))
        const runs = { engine: [], raw: [] }
        try {
          for (let i = 0; i < repeat(lines); i++) {
            // Alternate which goes first, so drift on a shared machine hits both alike.
            for (const variant of i % 2 === 0 ? ["raw", "engine"] : ["engine", "raw"]) {
              const copy = await store.copy(template, `${variant}_${lines}_${i}`)
              try {
                const profile = variant === "engine" && profileDir !== undefined
                  ? `wave-${storeName}-${lines}-${i}.cpuprofile`
                  : undefined
                const execArgv = profile === undefined
                  ? []
                  : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${profile}`]
                const result = await runChild(here, `${variant}.js`, [copy.database, String(template.seeded)], execArgv)
                log(
                  `  ${variant.padEnd(6)} create ${result.createMs.toFixed(0)} ms, ` +
                    `start ${result.startMs.toFixed(0)} ms (cpu ${result.startCpuMs.toFixed(0)} ms), ` +
                    `peak RSS ${(result.peakRssKiB / 1024).toFixed(0)} MiB` +
                    (result.startPeakRssKiB === undefined
                      ? ""
                      : `, start adds ${((result.startPeakRssKiB - result.rssBeforeStartKiB) / 1024).toFixed(0)} MiB`)
                )
                if (result.spans !== undefined) {
                  const spans = Object.entries(result.spans).slice(0, 12)
                  log(`         ${spans.map(([name, span]) => `${name} ${span.ms}`).join(", ")}`)
                }
                if (profile !== undefined) {
                  for (const { frame, self_ms } of topFrames(join(profileDir, profile))) {
                    log(`         ${String(self_ms).padStart(6)} ms  ${frame}`)
                  }
                }
                runs[variant].push(result)
              } finally {
                await copy.drop()
              }
            }
          }
        } finally {
          await store.dropTemplate(template)
        }
        const counts = runs.engine[0].counts
        const consistent = [...runs.engine, ...runs.raw].every((run) => sameCounts(run.counts, counts))
        const written = rowsOfStart(counts)
        const engineStart = median(runs.engine.map((run) => run.startMs))
        const rawStart = median(runs.raw.map((run) => run.startMs))
        const engineCpu = median(runs.engine.map((run) => run.startCpuMs))
        const rawCpu = median(runs.raw.map((run) => run.startCpuMs))
        const engineCreate = median(runs.engine.map((run) => run.createMs))
        const rawCreate = median(runs.raw.map((run) => run.createMs))
        rows.push({
          store: storeName,
          lines,
          orders: counts.wave_orders,
          claims: counts.claims,
          rows_written: written,
          consistent,
          engine: {
            create_ms: round(engineCreate),
            start_ms: round(engineStart),
            start_cpu_ms: round(engineCpu),
            rows_per_s: Math.round(written / (engineStart / 1000)),
            peak_rss_mib: round(Math.max(...runs.engine.map((run) => run.peakRssKiB)) / 1024),
            rss_before_mib: round(Math.max(...runs.engine.map((run) => run.rssBeforeKiB)) / 1024),
            rss_before_start_mib: round(Math.max(...runs.engine.map((run) => run.rssBeforeStartKiB)) / 1024),
            start_peak_rss_mib: round(Math.max(...runs.engine.map((run) => run.startPeakRssKiB)) / 1024),
            start_added_rss_mib: round(
              Math.max(...runs.engine.map((run) => run.startPeakRssKiB - run.rssBeforeStartKiB)) / 1024
            ),
            start_peak_reset: runs.engine.every((run) => run.peakReset)
          },
          lower_bound: {
            create_ms: round(rawCreate),
            start_ms: round(rawStart),
            start_cpu_ms: round(rawCpu),
            rows_per_s: Math.round(written / (rawStart / 1000)),
            peak_rss_mib: round(Math.max(...runs.raw.map((run) => run.peakRssKiB)) / 1024)
          },
          engine_spans: runs.engine[0].spans,
          ratio_start: round(engineStart / rawStart, 2),
          ratio_start_cpu: round(engineCpu / rawCpu, 2),
          start_cpu_spread: spreadOf(runs.engine, runs.raw, (run) => run.startCpuMs),
          ratio_create: round(engineCreate / rawCreate, 2),
          runs: repeat(lines)
        })
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  return rows
}

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/** Scaling of the start time from the smallest to the largest size, per store. */
export const scaling = (rows) =>
  [...new Set(rows.map((row) => row.store))].flatMap((store) => {
    const mine = rows.filter((row) => row.store === store).sort((a, b) => a.lines - b.lines)
    if (mine.length < 2) return []
    const [small, large] = [mine[0], mine[mine.length - 1]]
    return [{
      store,
      lines_factor: round(large.lines / small.lines, 1),
      start_time_factor: round(large.engine.start_ms / small.engine.start_ms, 2),
      start_cpu_factor: round(large.engine.start_cpu_ms / small.engine.start_cpu_ms, 2),
      lower_bound_time_factor: round(large.lower_bound.start_ms / small.lower_bound.start_ms, 2),
      runs: Math.min(small.runs, large.runs)
    }]
  })
