/**
 * What the benchmarks that measure one operation on a seeded database share: a template database
 * per store kind, seeded once, of which each run gets a fresh copy; and the child process each run
 * is measured in, so that its peak RSS is its own.
 */
import { fork } from "node:child_process"
import { copyFileSync, rmSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { onAdmin, pgUrl } from "./common.js"
import { migrate } from "./wave/data.js"

/**
 * Runs `script` of `folder` in its own process and answers the `result` of the `{ok, result}` it
 * sends over IPC; fails with its `error` (or its exit code) otherwise.
 */
export const runChild = (folder, script, args, execArgv = []) =>
  new Promise((resolve, reject) => {
    let answer
    const process = fork(join(folder, script), args, { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] })
    process.on("message", (message) => (answer = message))
    process.on("error", reject)
    // The machine's load as the run starts, reported beside its figures.
    const load = Math.round(loadavg()[0] * 10) / 10
    process.on("exit", (code) => {
      if (answer?.ok) resolve({ ...answer.result, load })
      else reject(new Error(`${script} ${args.join(" ")} failed (exit ${code}): ${answer?.error ?? "no answer"}`))
    })
  })

/**
 * The store kinds, each seeding a migrated template with `seeds.sqlite(file, data)` or
 * `seeds.postgres(url, data)` (what it answers is the template's `seeded`), copying it for a run,
 * and throwing them away. SQLite files go in `folder`; PostgreSQL databases are named from `prefix`.
 */
export const templateStores = (seeds) => ({
  sqlite: (folder) => ({
    template: async (name, data) => {
      const file = join(folder, `${name}.db`)
      await migrate(`sqlite:${file}`)
      return { file, seeded: await seeds.sqlite(file, data) }
    },
    copy: (template, name) => {
      const file = join(folder, `${name}.db`)
      copyFileSync(template.file, file)
      return { database: `sqlite:${file}`, drop: async () => rmSync(file, { force: true }) }
    },
    dropTemplate: async (template) => rmSync(template.file, { force: true })
  }),
  postgres: (_folder, prefix) => ({
    template: async (name, data) => {
      const database = `${prefix}_${name}`
      await onAdmin(`CREATE DATABASE ${database}`)
      await migrate(pgUrl(database))
      return { name: database, seeded: await seeds.postgres(pgUrl(database), data) }
    },
    copy: async (template, name) => {
      const database = `${prefix}_${name}`
      await onAdmin(`CREATE DATABASE ${database} TEMPLATE ${template.name}`)
      return { database: pgUrl(database), drop: () => onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`) }
    },
    dropTemplate: (template) => onAdmin(`DROP DATABASE IF EXISTS ${template.name} WITH (FORCE)`)
  })
})
