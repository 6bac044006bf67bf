/**
 * How long property tests and storms search. Each names the size that keeps `npm test` short (a
 * number of runs, a storm's duration); `WMS_PROPERTY_SCALE` multiplies them all for a longer
 * search, e.g. `WMS_PROPERTY_SCALE=10 npx vitest run packages/http/test/EngineProperties.test.ts`.
 */

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
