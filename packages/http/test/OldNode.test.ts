/**
 * On a Node.js older than the engines field allows, every entry point stops with one line and exit
 * code 1 before better-sqlite3 loads (whose addon would crash the process without a word): the
 * bundled server (`npm start`), `wms-server`, `wms` and an application importing `@wms/sql-sqlite`,
 * all built (`npm run build`). The old Node is the npm `node` package's, installed once into
 * `node_modules/.cache` (a few seconds; later runs reuse it).
 */
import { assert, beforeAll, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const oldVersion = "20.20.2"
const cache = join(root, "node_modules", ".cache")
const installed = join(cache, `node-${oldVersion}`)
const oldNode = join(installed, "node_modules", ".bin", "node")

/**
 * Installs the old Node once: into a folder of its own, then renamed into place, so concurrent runs
 * never see half. Asynchronously: a synchronous install blocked the worker's event loop for as long
 * as npm took, minutes on a loaded machine, and vitest failed the run with `[vitest-worker]: Timeout
 * calling "onTaskUpdate"`.
 */
const installOldNode = async () => {
  if (existsSync(oldNode)) return
  mkdirSync(cache, { recursive: true })
  const folder = mkdtempSync(join(cache, `node-${oldVersion}-`))
  await promisify(execFile)(
    "npm",
    ["install", "--prefix", folder, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `node@${oldVersion}`]
  )
  try {
    renameSync(folder, installed)
  } catch {
    // Another run installed it meanwhile.
    rmSync(folder, { recursive: true, force: true })
  }
}

const refusal = `wms needs Node.js 22 or newer; this is Node.js ${oldVersion}\n`

const runOld = (args: ReadonlyArray<string>) =>
  new Promise<{ status: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      oldNode,
      args,
      { cwd: root, env: { PATH: process.env.PATH ?? "", WMS_DATABASE_URL: "sqlite::memory:" } },
      (_error, stdout, stderr) => resolve({ status: child.exitCode, signal: child.signalCode, stdout, stderr })
    )
  })

// Concurrent: each process spends its time loading modules.
describe.concurrent(`on Node.js ${oldVersion}`, () => {
  beforeAll(installOldNode, 120_000)

  it("the installed Node is the old one", async () => {
    assert.strictEqual((await runOld(["--version"])).stdout, `v${oldVersion}\n`)
  })

  const entries: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ["the bundled server", ["packages/http/dist/server.bundle.js"]],
    ["wms-server", ["packages/http/dist/bin.js"]],
    ["wms export", ["packages/http/dist/cli/bin.js", "export", "skus"]],
    ["wms migrate", ["packages/http/dist/cli/bin.js", "migrate"]],
    ["an import of @wms/sql-sqlite", ["--input-type=module", "-e", `import "@wms/sql-sqlite"; console.log("ran")`]]
  ]
  for (const [name, args] of entries) {
    // 180 s: six old Nodes at once load the unbundled modules; over 60 s on a loaded machine (load 17).
    it(`${name} stops with one line and exit code 1`, async () => {
      assert.deepStrictEqual(await runOld(args), { status: 1, signal: null, stdout: "", stderr: refusal })
    }, 180_000)
  }
})
