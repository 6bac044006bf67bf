/**
 * The warehouse cycle benchmark: for each store, a seeded template database per bench (the
 * putaway of a receipt, moves, the count of a zone, the replenishment of pick faces), then the engine and its raw-SQL lower bound each on a fresh
 * copy of it, each in its own child process, alternating. Times are medians, the peak RSS the
 * highest of the runs; the ratio is engine / lower bound, its spread the lowest and highest of the
 * per-pair ratios, with the machine's load as the runs started. Each bench's goal is `cycleTargetCpu`
 * by CPU, judged only from at least three runs. Both sides must leave the same rows.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { median, spreadOf, table, verdict } from "../common.js"
import { runChild, templateStores } from "../templates.js"
import { topFrames } from "../wave/index.js"
import { generateCount, generateMoves, generatePutaway, generateReplenish, seedPg, seedSqlite } from "./data.js"

const here = fileURLToPath(new URL(".", import.meta.url))

/** The benches: their data for a size, and the rows one run inserts or updates, for the report. */
const benches = {
  putaway: {
    generate: generatePutaway,
    // Contents, Receipt rows, tasks, Task rows, pre-advice lines, the pre-advice's status, the event.
    rowsWritten: (c) => c.contents + c.receipt_rows + c.tasks + c.task_rows + c.lines_received + 2
  },
  moves: {
    generate: generateMoves,
    // Per move: the task, the source and the Task row; the task, the source, the destination and the Move row.
    rowsWritten: (c) => c.completed * 7
  },
  count: {
    generate: generateCount,
    // Per count: inserted, released and completed, its location set twice and its event; per
    // content its snapshot and its line; per variance a Count row and the content.
    rowsWritten: (c) => c.completed * 6 + c.snapshot_rows + c.lines + c.count_rows * 2
  },
  replenish: {
    generate: generateReplenish,
    // The tasks, their Task rows and the sources they reserve.
    rowsWritten: (c) => c.tasks + c.task_rows + c.sources
  }
}

export const cycleNotes = [
  "Putaway: one POST /preadvices/:id/receive with putaway of a 10,000-line pre-advice (400 SKUs, a fourth with " +
  "48 to a full pallet) through the Receiving service, one transaction, against empty Storage locations of 4 " +
  "tags each with room for 90% of the tasks (the rest is reported unplaced). The lower bound reads the " +
  "pre-advice, pallet sizes and free tags, places by first fit and writes contents, Receipt rows, tasks, Task " +
  "rows, lines, status and event in one transaction of bulk inserts (multi-row VALUES on SQLite, arrays on pg).",
  "Moves: 10,000 Move tasks over 5,000 contents, each created and then confirmed through the MovementTasks " +
  "service, every call its own transaction (20,000 commits), between managed Storage locations; each content " +
  "moves twice to the same place, so the first confirm makes the destination content and the second adds to " +
  "it. The lower bound runs the same transactions with the fewest prepared statements (create: lock the " +
  "content, insert the task, raise qty_tasked_from, Task row; confirm: close the task, take from the source, " +
  "find and raise or insert the destination, Move row); it reads no location, occupancy or SKU.",
  "Count: a zone of 10,000 contents (1,000 Storage locations of 10 tags each, 500 SKUs) counted through the " +
  "Counts service as an API client would: POST /counts/plan of the zone (one transaction, 1,000 counts), a " +
  "release of each (1,000 transactions), then per count its sheet read and its record of every line, every " +
  "seventh off by 1 or 2, which applies at once (1,000 transactions; no threshold set). The lower bound runs the " +
  "same transactions with the fewest statements (bulk inserts of counts, snapshots and lines, a Count row and " +
  "an update per changed content, the location and the count updated, the count_completed event).",
  "Replenish: POST /replenishments/run through the Replenishment service, one transaction, over 1,000 pick " +
  "faces each 5 below a min of 10 (max 50) with two reserve contents of 30 of its SKU: 2,000 Replenish tasks " +
  "(30 and 15). The lower bound reads the faces' levels and the reserve in two statements, plans in memory " +
  "and writes the tasks, Task rows and reservations in bulk.",
  "Both sides leave the same rows (contents, tasks and ledger rows, digested): `same rows` says so."
]

/** The goal of every cycle bench: at most this many times its raw-SQL bound, by CPU. */
export const cycleTargetCpu = 2

const stores = templateStores({ sqlite: seedSqlite, postgres: seedPg })

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/** The figures of one side over its runs. */
const figures = (runs, written) => {
  const ms = median(runs.map((run) => run.ms))
  return {
    ms: round(ms),
    cpu_ms: round(median(runs.map((run) => run.cpuMs))),
    rows_per_s: Math.round(written / (ms / 1000)),
    peak_rss_mib: round(Math.max(...runs.map((run) => run.peakRssKiB)) / 1024)
  }
}

/**
 * Measures the putaway of a `lines`-line receipt and `moves` moves on every store, `repeat` times
 * each; with `profileDir` the engine children write `--cpu-prof` profiles there. Answers one row
 * per store and bench.
 */
export const runCycleBench = async ({
  benchNames = Object.keys(benches),
  contents = 10_000,
  faces = 1_000,
  lines = 10_000,
  log,
  moves = 10_000,
  profileDir,
  repeat,
  storeNames
}) => {
  const folder = mkdtempSync(join(tmpdir(), "wms-bench-cycle-"))
  const prefix = `wms_bench_cycle_${process.pid}`
  const sizes = { putaway: lines, moves, count: contents, replenish: faces }
  const rows = []
  try {
    for (const storeName of storeNames) {
      const store = stores[storeName](folder, prefix)
      for (const bench of benchNames) {
        const { generate, rowsWritten } = benches[bench]
        const size = sizes[bench]
        log(`cycle ${storeName} ${bench} ${size}: seeding`)
        const template = await store.template(`seed_${bench}`, generate(size))
        const runs = { engine: [], raw: [] }
        try {
          for (let i = 0; i < repeat; i++) {
            // Alternate which goes first, so drift on a shared machine hits both alike.
            for (const variant of i % 2 === 0 ? ["raw", "engine"] : ["engine", "raw"]) {
              const copy = await store.copy(template, `${bench}_${variant}_${i}`)
              try {
                const profile = variant === "engine" && profileDir !== undefined
                  ? `cycle-${storeName}-${bench}-${i}.cpuprofile`
                  : undefined
                const execArgv = profile === undefined
                  ? []
                  : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${profile}`]
                const result = await runChild(here, `${variant}.js`, [copy.database, bench, String(size)], execArgv)
                log(
                  `  ${variant.padEnd(6)} ${result.ms.toFixed(0)} ms (cpu ${result.cpuMs.toFixed(0)} ms), ` +
                    `peak RSS ${(result.peakRssKiB / 1024).toFixed(0)} MiB, rows ${result.digest}`
                )
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
        const [first] = runs.engine
        const written = rowsWritten(first.counts)
        const engine = figures(runs.engine, written)
        const bound = figures(runs.raw, written)
        rows.push({
          store: storeName,
          bench,
          size,
          rows_written: written,
          counts: { ...first.counts, ...(first.unplaced === undefined ? {} : { qty_unplaced: first.unplaced }) },
          same_rows: [...runs.engine, ...runs.raw].every((run) =>
            run.digest === first.digest && run.unplaced === first.unplaced
          ),
          engine: { ...engine, rss_before_mib: round(Math.max(...runs.engine.map((run) => run.rssBeforeKiB)) / 1024) },
          lower_bound: bound,
          ratio: round(engine.ms / bound.ms, 2),
          ratio_cpu: round(engine.cpu_ms / bound.cpu_ms, 2),
          cpu_spread: spreadOf(runs.engine, runs.raw, (run) => run.cpuMs),
          target_cpu: cycleTargetCpu,
          verdict: verdict(engine.cpu_ms / bound.cpu_ms <= cycleTargetCpu, repeat),
          runs: repeat
        })
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  return rows
}

/** The cycle table and the notes under it. */
export const printCycle = (rows, notes = cycleNotes) => {
  console.log()
  console.log(table(
    [
      "cycle",
      "bench",
      "size",
      "rows",
      "engine ms",
      "bound ms",
      "ratio",
      "cpu ratio",
      "cpu spread",
      "target",
      "load",
      "runs",
      "engine rows/s",
      "bound rows/s",
      "peak RSS MiB",
      "bound RSS MiB",
      "same rows"
    ],
    rows.map((row) => [
      row.store,
      row.bench,
      row.size,
      row.rows_written,
      row.engine.ms,
      row.lower_bound.ms,
      `${row.ratio}×`,
      `${row.ratio_cpu}×`,
      `${row.cpu_spread.ratio_min}–${row.cpu_spread.ratio_max}×`,
      `≤ ${row.target_cpu}× ${row.verdict}`,
      `${row.cpu_spread.load_min}–${row.cpu_spread.load_max}`,
      row.runs,
      row.engine.rows_per_s,
      row.lower_bound.rows_per_s,
      row.engine.peak_rss_mib,
      row.lower_bound.peak_rss_mib,
      row.same_rows ? "yes" : "NO"
    ])
  ))
  for (const note of notes) console.log(`\n${note}`)
}
