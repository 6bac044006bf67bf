import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const source = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url))

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
    include: ["packages/*/test/**/*.test.ts", "examples/**/*.test.ts"],
    globalSetup: ["testing/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The suites wait on databases and server processes far more than on the CPU: three at a
    // time keep both cores busy (vitest's default on two cores is one).
    maxWorkers: 3,
    minWorkers: 1
  }
})
