/**
 * The engine runs on effect 3, from 3.22 on (the peer range of every @wms package). Each package's
 * entry point evaluates this module before the engine's other modules, so an application on an
 * older effect 3 is told which one is needed instead of failing later on a missing function.
 * Effect 4 lacks exports the engine imports, which Node reports while it links the modules, before
 * any of them runs: this module's import is then the first to fail (it is the first the entry
 * points import), and Node shows its line, which says what is needed.
 */
import { ModuleVersion } from "effect" // Not in effect 4: the engine needs effect ^3.22.0 (npm install effect@3)

/** The versions of effect the engine runs on, as the packages' `peerDependencies` say. */
export const supportedEffect = "^3.22.0"

/** Why effect `version` cannot run the engine, or `undefined` when it can or is no version at all. */
export const effectVersionProblem = (version: unknown): string | undefined => {
  const parts = typeof version === "string" ? /^(\d+)\.(\d+)\.\d+/.exec(version) : null
  if (parts === null) return undefined
  if (Number(parts[1]) === 3 && Number(parts[2]) >= 22) return undefined
  return `The warehouse engine (@wms/*) needs effect ${supportedEffect} (3.22 or a later 3.x), but effect ${version} ` +
    "is loaded: install effect@3 in your application (npm install effect@3), and check with npm ls effect " +
    "that it is the only copy."
}

// The version of the copy of effect actually loaded (in a bundle, the bundled one), which its own
// package.json, found on disk from here, need not be. A version that cannot be read is not checked.
const loaded = (): unknown => {
  try {
    return ModuleVersion.getCurrentVersion()
  } catch {
    return undefined
  }
}

const problem = effectVersionProblem(loaded())
if (problem !== undefined) throw new Error(problem)
