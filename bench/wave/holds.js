/**
 * The holds benchmark (issue 32): the start of a wave of 10,000 orders × 3 lines (the wave
 * benchmark's 30,000-line warehouse) with 1,000 Active holds on the site, against the same start
 * with none, each through the engine (`engine.js`) on a fresh copy of its seeded template, in its
 * own child process, alternating. The holds are 900 lot holds on the wave's own SKUs (each on a tag
 * no content has) and 100 location holds on places that hold nothing, so both starts allocate
 * exactly the same stock and the difference is the cost of looking for holds.
 */
import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { median } from "../common.js"
import { runChild, templateStores } from "../templates.js"
import { generate, seedPg, seedSqlite, SITE } from "./data.js"

const here = fileURLToPath(new URL(".", import.meta.url))
export const HOLDS = 1_000
const LINES = 30_000
const CREATED_AT = "2025-06-01T08:00:00.000Z"

/** The rows of the 1,000 holds: `[sku_id, tag_id, loc_id]`. */
const holdRows = (skus) =>
  Array.from(
    { length: HOLDS },
    (_, i) => i < 900 ? [skus[(i * 7) % skus.length], `RECALLED-${i}`, null] : [null, null, `QUARANTINE-${i}`]
  )

const withHoldsSqlite = (file, data) => {
  const definition = seedSqlite(file, data)
  if (data.holds) {
    const db = new Database(file)
    const insert = db.prepare(`INSERT INTO holds (site_id, sku_id, tag_id, loc_id, reason_code, status_id, deallocate,
      created_by, created_at) VALUES (?, ?, ?, ?, 'Bench', 24, 0, 'bench', ?)`)
    db.transaction(() => {
      for (const [sku, tag, loc] of holdRows(data.skus)) insert.run(SITE, sku, tag, loc, CREATED_AT)
    })()
    db.close()
  }
  return definition
}

const withHoldsPg = async (url, data) => {
  const definition = await seedPg(url, data)
  if (data.holds) {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const rows = holdRows(data.skus)
      await client.query(
        `INSERT INTO holds (site_id, sku_id, tag_id, loc_id, reason_code, status_id, deallocate, created_by, created_at)
         SELECT $1, s, t, l, 'Bench', 24, 0, 'bench', $2 FROM unnest($3::text[], $4::text[], $5::text[]) AS v(s, t, l)`,
        [SITE, CREATED_AT, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])]
      )
      await client.query("ANALYZE holds")
    } finally {
      await client.end()
    }
  }
  return definition
}

const stores = templateStores({ sqlite: withHoldsSqlite, postgres: withHoldsPg })

/** Measures each store `repeat` times per variant; answers one row per store. */
export const runHoldsBench = async ({ storeNames, repeat, log }) => {
  const folder = mkdtempSync(join(tmpdir(), "wms-bench-holds-"))
  const prefix = `wms_bench_holds_${process.pid}`
  const rows = []
  try {
    for (const storeName of storeNames) {
      const store = stores[storeName](folder, prefix)
      log(`holds ${storeName}: seeding`)
      const data = generate(LINES)
      const templates = {
        none: await store.template("none", data),
        holds: await store.template("holds", { ...data, holds: true })
      }
      const runs = { none: [], holds: [] }
      try {
        for (let i = 0; i < repeat; i++) {
          for (const variant of i % 2 === 0 ? ["none", "holds"] : ["holds", "none"]) {
            const template = templates[variant]
            const copy = await store.copy(template, `${variant}_${i}`)
            try {
              const result = await runChild(here, "engine.js", [copy.database, String(template.seeded)])
              log(
                `  ${variant.padEnd(5)} start ${result.startMs.toFixed(0)} ms (cpu ${result.startCpuMs.toFixed(0)} ms)`
              )
              runs[variant].push(result)
            } finally {
              await copy.drop()
            }
          }
        }
      } finally {
        await store.dropTemplate(templates.none)
        await store.dropTemplate(templates.holds)
      }
      const none = median(runs.none.map((run) => run.startMs))
      const held = median(runs.holds.map((run) => run.startMs))
      const noneCpu = median(runs.none.map((run) => run.startCpuMs))
      const heldCpu = median(runs.holds.map((run) => run.startCpuMs))
      rows.push({
        store: storeName,
        lines: LINES,
        holds: HOLDS,
        start_ms_none: Math.round(none),
        start_ms_holds: Math.round(held),
        ratio: Math.round((held / none) * 100) / 100,
        start_cpu_ms_none: Math.round(noneCpu),
        start_cpu_ms_holds: Math.round(heldCpu),
        ratio_cpu: Math.round((heldCpu / noneCpu) * 100) / 100,
        same_work: JSON.stringify(runs.none[0].counts) === JSON.stringify(runs.holds[0].counts),
        runs: repeat
      })
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  return rows
}
