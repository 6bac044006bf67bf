/**
 * Runs before each test file, in its worker. The files of a worker share their modules
 * (`isolate: false` in `vitest.config.ts`: the engine's sources load once per worker, not once per
 * file), so what a file changes in a shared module must be undone here.
 *
 * `layer(…)` of `@effect/vitest` assigns its own `it.effect` (bound to the layer's runtime, e.g. a
 * test server on the real clock) onto the global `it`. Without this reset the next file's
 * `it.effect` would run in the previous file's layer, on its clock instead of the TestClock.
 */
import { it, makeMethods } from "@effect/vitest"

makeMethods(it)
