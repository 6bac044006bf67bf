/**
 * The test databases an interrupted run leaves behind are dropped by the next run
 * (`testing/globalSetup.ts`), and only those: a database of a running process stays, however many
 * runs share the machine, unless it is hours old.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import pg from "pg"
import { dropStaleDatabases, isStaleDatabase, pgAdminUrl } from "../../../testing/databases.js"

const minute = 60 * 1000
const hour = 60 * minute
const now = Date.UTC(2026, 10, 29, 12)
const named = (pid: number, ageMillis: number) => `wms_test_${pid}_${now - ageMillis}_123`

describe("stale test databases", () => {
  it("are those of a process gone for a quarter of an hour, or of any process after six hours", () => {
    const running = (pid: number) => pid === 1
    assert.isTrue(isStaleDatabase(named(2, 16 * minute), now, running))
    assert.isFalse(isStaleDatabase(named(2, 14 * minute), now, running))
    assert.isFalse(isStaleDatabase(named(1, 5 * hour), now, running))
    assert.isTrue(isStaleDatabase(named(1, 7 * hour), now, running))
    for (const other of ["wms_test", "wms_test_x_1_2", "test", "wms_test_1_2"]) {
      assert.isFalse(isStaleDatabase(other, now, () => false), other)
    }
  })

  it("are dropped; a running process's stay", async () => {
    // A pid that ran and is gone.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid!
    const stale = `wms_test_${gone}_${Date.now() - hour}_1`
    const live = `wms_test_${process.pid}_${Date.now() - hour}_2`
    const admin = new pg.Client({ connectionString: pgAdminUrl })
    await admin.connect()
    try {
      for (const name of [stale, live]) await admin.query(`CREATE DATABASE ${name}`)
      const dropped = await Effect.runPromise(dropStaleDatabases)
      assert.include(dropped, stale)
      assert.notInclude(dropped, live)
      const left = await admin.query("SELECT datname FROM pg_database WHERE datname = ANY($1)", [[stale, live]])
      assert.deepStrictEqual(left.rows.map((row) => row.datname), [live])
    } finally {
      for (const name of [stale, live]) await admin.query(`DROP DATABASE IF EXISTS ${name}`)
      await admin.end()
    }
  })
})
