/**
 * The engine runs on Node.js 22 or newer (the `engines` field of every @wms package): on an older
 * Node, better-sqlite3's native addon crashes the process without a word. Each entry point (the
 * packages, `wms-server`, `wms`, the bundled server) evaluates this module before any other, so such
 * a process stops with one line saying what is needed, before a store loads its driver.
 */

/** The oldest major version of Node.js the engine runs on. */
export const supportedNodeMajor = 22

/** Why Node.js `version` (`process.versions.node`) cannot run the engine, or `undefined` when it can. */
export const nodeVersionProblem = (version: string): string | undefined => {
  const major = Number(/^(\d+)\./.exec(version)?.[1])
  return Number.isInteger(major) && major < supportedNodeMajor
    ? `wms needs Node.js ${supportedNodeMajor} or newer; this is Node.js ${version}`
    : undefined
}

// Outside Node (a browser holding the domain) there is nothing to check.
const running = typeof process === "object" ? process.versions?.node : undefined
const problem = running === undefined ? undefined : nodeVersionProblem(running)
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`)
  process.exit(1)
}
