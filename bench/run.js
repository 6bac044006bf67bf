/**
 * `npm run bench`: the benchmarks of the engine, each figure next to its lower bound measured in
 * the same run on the same machine. Prints one table and writes `bench/results/latest.json`.
 *
 *   node bench/run.js [--stores sqlite,postgres] [--lines 30000,300000] [--repeat 3] [--repeat-large 1] [--profile]
 *
 * Each size runs `--repeat` times (`--repeat-large` from 100,000 lines up, to stay within ten minutes on
 * two cores); times are medians, the peak RSS the highest of the runs. *
 * `--profile` writes a `--cpu-prof` profile of every engine run to `bench/results/profiles.tmp/`.
 * PostgreSQL is reached at `WMS_BENCH_PG_URL` (default `postgres://postgres@127.0.0.1:5432/test`),
 * the maintenance database from which throw-away databases are created and dropped.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runWaveBench, scaling } from "./wave/index.js"

const results = fileURLToPath(new URL("results", import.meta.url))

const { values } = parseArgs({
  options: {
    stores: { type: "string", default: "sqlite,postgres" },
    lines: { type: "string", default: "30000,300000" },
    repeat: { type: "string", default: "3" },
    "repeat-large": { type: "string", default: "1" },
    profile: { type: "boolean", default: false },
    output: { type: "string", default: join(results, "latest.json") }
  }
})

/** The targets of the performance issue, checked against the figures (and only reported). */
const targets = { ratio: { sqlite: 3, postgres: 4 }, scaling: 11, peakRssMiB: 512 }

const log = (line) => process.stderr.write(`${line}\n`)

const table = (headers, rows) => {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => String(row[i]).length)))
  const line = (cells) => cells.map((cell, i) => String(cell).padStart(widths[i])).join("  ")
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

const main = async () => {
  const profileDir = values.profile ? join(results, "profiles.tmp") : undefined
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true })
  const started = Date.now()
  const waves = await runWaveBench({
    storeNames: values.stores.split(","),
    sizes: values.lines.split(",").map(Number),
    repeat: (lines) => Number(lines >= 100_000 ? values["repeat-large"] : values.repeat),
    profileDir,
    log
  })
  const scale = scaling(waves)
  const verdict = (ok) => (ok ? "ok" : "MISS")
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memory_gib: Math.round(totalmem() / 2 ** 30),
      node: process.version
    },
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
    duration_s: Math.round((Date.now() - started) / 1000),
    targets,
    wave: waves.map((row) => ({
      ...row,
      verdict: {
        ratio: verdict(row.ratio_start <= targets.ratio[row.store]),
        peak_rss: verdict(row.engine.peak_rss_mib <= targets.peakRssMiB),
        consistent: verdict(row.consistent)
      }
    })),
    wave_scaling: scale.map((row) => ({ ...row, verdict: verdict(row.start_time_factor <= targets.scaling) }))
  }
  mkdirSync(results, { recursive: true })
  writeFileSync(values.output, `${JSON.stringify(report, null, 2)}\n`)

  console.log(table(
    ["wave", "lines", "claims", "rows", "create ms", "start ms", "rows/s", "bound ms", "bound rows/s", "ratio",
      "target", "cpu ratio", "peak RSS MiB"],
    report.wave.map((row) => [
      row.store,
      row.lines,
      row.claims,
      row.rows_written,
      row.engine.create_ms,
      row.engine.start_ms,
      row.engine.rows_per_s,
      row.lower_bound.start_ms,
      row.lower_bound.rows_per_s,
      `${row.ratio_start}×`,
      `≤ ${targets.ratio[row.store]}× ${row.verdict.ratio}`,
      `${row.ratio_start_cpu}×`,
      `${row.engine.peak_rss_mib} ${row.verdict.peak_rss}${row.consistent ? "" : " (rows differ!)"}`
    ])
  ))
  if (scale.length > 0) {
    console.log()
    console.log(table(
      ["wave scaling", "lines ×", "start time ×", "bound time ×", "target"],
      report.wave_scaling.map((row) => [row.store, row.lines_factor, row.start_time_factor, row.lower_bound_time_factor,
        `≤ ${targets.scaling}× ${row.verdict}`])
    ))
  }
  console.log(`\n${report.command}: ${report.duration_s} s; times are medians of the runs; written to ${values.output}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
