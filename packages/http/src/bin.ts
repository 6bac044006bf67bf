#!/usr/bin/env node
/**
 * The bundled server, configured by environment variables: the package's `wms-server`. `npm start`
 * runs it bundled into one file, `dist/server.bundle.js` (`bundle.js`), which starts faster.
 */
// First: @wms/core checks the versions of Node.js and effect before the other modules run.
import "@wms/core"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Layer, Logger, Runtime } from "effect"
import { serverConfig } from "./server/Config.js"
import * as Server from "./server/Server.js"

const stopSignals = ["SIGTERM", "SIGINT"] as const

/**
 * One line as a stop signal arrives, before the stop itself (`Server.layer`'s finalizers, which
 * `runMain` sets going on the same signal) begins: the signal's listener logs it at once.
 */
const logStopSignals = Effect.map(Effect.runtime<never>(), (runtime) => {
  for (const signal of stopSignals) {
    process.once(
      signal,
      () =>
        Runtime.runSync(runtime)(Effect.logInfo(`Stopping on ${signal}`).pipe(Effect.annotateLogs("reason", signal)))
    )
  }
})

/** The one line of a server that cannot start or go on: the failure, with its cause. */
const logFatal = (cause: Cause.Cause<unknown>) =>
  Cause.isInterruptedOnly(cause)
    ? Effect.void
    : Effect.logError("Stopping on a fatal error", cause).pipe(Effect.annotateLogs("reason", "fatal error"))

// Logs are JSON lines, each with the request id of the request that wrote it.
Effect.flatMap(serverConfig, (config) =>
  Effect.zipRight(logStopSignals, Layer.launch(Server.layer(config))).pipe(
    Logger.withMinimumLogLevel(config.logLevel)
  )).pipe(
    Effect.tapErrorCause(logFatal),
    Effect.provide(Logger.json),
    NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
  )
