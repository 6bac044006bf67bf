/**
 * How long property tests and storms search. Each names the size that keeps `npm test` short (a
 * number of runs, a storm's duration); `WMS_PROPERTY_SCALE` multiplies them all for a longer
 * search, e.g. `WMS_PROPERTY_SCALE=10 npx vitest run packages/http/test/EngineProperties.test.ts`.
 */
import { Effect } from "effect"

const scale = Number(process.env.WMS_PROPERTY_SCALE ?? "1")

/** The runs of a property sized `ciRuns` for `npm test`, scaled by `WMS_PROPERTY_SCALE`. */
export const propertyRuns = (ciRuns: number) => Math.max(1, Math.round(ciRuns * scale))

/** How long a multi-process storm lasts: `ciMillis` in `npm test`, scaled by `WMS_PROPERTY_SCALE`. */
export const stormDuration = (ciMillis: number) => Math.round(ciMillis * scale)

/**
 * The timeout of a test sized by the scale: `ciMillis` in `npm test`, longer for a longer search,
 * never shorter. Leave room for a loaded machine: a timeout catches a hang, not slowness.
 */
export const scaledTimeout = (ciMillis: number) => Math.round(ciMillis * Math.max(1, scale))

/**
 * Lets the event loop turn once. A property of the engine on SQLite runs on microtasks alone (its
 * statements are synchronous), so without this a run of many sequences never reads the messages
 * of its vitest worker, and a worker that leaves vitest's calls unanswered for a minute fails the
 * whole test run with `Timeout calling "onTaskUpdate"`.
 */
export const turnEventLoop = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
