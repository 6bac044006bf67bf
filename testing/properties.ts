/**
 * How long property tests search. Each property names the number of runs that keeps `npm test`
 * short; `WMS_PROPERTY_SCALE` multiplies them all for a longer search, e.g.
 * `WMS_PROPERTY_SCALE=10 npx vitest run packages/http/test/EngineProperties.test.ts`.
 */

const scale = Number(process.env.WMS_PROPERTY_SCALE ?? "1")

/** The runs of a property sized `ciRuns` for `npm test`, scaled by `WMS_PROPERTY_SCALE`. */
export const propertyRuns = (ciRuns: number) => Math.max(1, Math.round(ciRuns * scale))
