import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

const source = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url))

/**
 * The files that take longest, though their source is short: they spawn servers and commands, run
 * storms or long searches. Vitest starts the largest files first until it has timed a run; these go
 * first, so that no worker is left alone on one of them at the end.
 */
const longest = /\/(Fuzz|Cli|EngineProperties|\w+Concurrency|WebhooksCrash|Startup|Lifecycle|Observability)\.test\.ts$/

class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const sorted = await super.sort(files)
    return [
      ...sorted.filter((file) => longest.test(file.moduleId)),
      ...sorted.filter((file) => !longest.test(file.moduleId))
    ]
  }
}

export default defineConfig({
  resolve: {
    // Tests run against the sources, never a stale build.
    alias: [
      ...["core", "sql", "sql-sqlite", "sql-pg", "http"].map((name) => ({
        find: new RegExp(`^@wms/${name}$`),
        replacement: source(name)
      })),
      // The packages' subpath entries, so that they share the sources' services and classes.
      { find: /^@wms\/core\/testing$/, replacement: source("core").replace(/index\.ts$/, "testing.ts") },
      { find: /^@wms\/http\/client$/, replacement: source("http").replace(/index\.ts$/, "Client.ts") }
    ]
  },
  test: {
    globalSetup: ["testing/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    include: ["packages/*/test/**/*.test.ts", "examples/**/*.test.ts"],
    // A worker process runs file after file and keeps its modules: the engine's sources load once
    // per worker instead of once per file, which took most of the run. `testing/setup.ts` undoes
    // what a file leaves in the modules the next file shares.
    pool: "forks",
    poolOptions: { forks: { isolate: false } },
    setupFiles: ["testing/setup.ts"],
    // The suites wait on databases and server processes far more than on the CPU: three at a
    // time keep both cores busy (vitest's default on two cores is one). No fewer are kept: the
    // pool ends a worker that idles while others work, and one ended so at the close of a run
    // failed it with `Terminating worker thread`.
    maxWorkers: 3,
    minWorkers: 3,
    sequence: { sequencer: LongestFirst }
  }
})
