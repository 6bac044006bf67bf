/**
 * The checks `npm test` runs before vitest, side by side: each is one Node process on one core, and
 * this machine has two. Each command's output is shown whole when it ends; the exit code is 1 when
 * any failed.
 *
 *   node testing/checks.mjs
 */
import { spawn } from "node:child_process"
import { delimiter } from "node:path"
import { fileURLToPath } from "node:url"

// The project's own tsc and eslint, also when run outside npm.
const bin = fileURLToPath(new URL("../node_modules/.bin", import.meta.url))
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` }

const checks = ["tsc -p tsconfig.test.json", "eslint .", "npm run lint:api"]

const run = (command) =>
  new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(command, { shell: true, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk))
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      process.stdout.write(`> ${command}: ${code === 0 ? "passed" : `failed (${code})`} in ${seconds} s\n${output}`)
      resolve(code === 0)
    })
  })

const passed = await Promise.all(checks.map(run))
process.exitCode = passed.every(Boolean) ? 0 : 1
