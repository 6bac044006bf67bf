#!/usr/bin/env node
/**
 * `wms`: bulk import and export, migration and the recovery of a password, on the engine in this
 * process and the database of `WMS_DATABASE_URL` (`Commands`). Configured by the environment
 * variables of `wms-server`; logs go to standard error, so that standard output holds only what a
 * command prints (an export's file, an import's report, a password).
 */
// First: @wms/core checks the versions of Node.js and effect before the other modules run.
import "@wms/core"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect, Either, Logger } from "effect"
import { serverConfig } from "../server/Config.js"
import { parseCommand, usage } from "./Arguments.js"
import * as Commands from "./Commands.js"

const stderrLogger = Logger.make(({ message }) => {
  process.stderr.write(`${Array.isArray(message) ? message.join(" ") : String(message)}\n`)
})

const main = Effect.gen(function*() {
  const config = yield* serverConfig
  const command = parseCommand(process.argv.slice(2), config.bootstrapSite)
  if (Either.isLeft(command)) {
    yield* Console.error(`${command.left.message}\n\n${usage}`)
    return 2
  }
  if (command.right._tag === "Help") {
    yield* Console.log(usage)
    return 0
  }
  return yield* Commands.run(command.right, config).pipe(Logger.withMinimumLogLevel(config.logLevel))
}).pipe(Effect.catchTag("ConfigError", (error) => Effect.as(Console.error(String(error)), 1)))

Effect.flatMap(main, (code) => Effect.sync(() => (process.exitCode = code))).pipe(
  Effect.provide(Logger.replace(Logger.defaultLogger, stderrLogger)),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
