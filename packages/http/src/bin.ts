#!/usr/bin/env node
/**
 * The bundled server, configured by environment variables: the package's `wms-server`. `npm start`
 * runs it bundled into one file, `dist/server.bundle.js` (`bundle.js`), which starts faster.
 */
// First: @wms/core checks the version of effect before the other modules run.
import "@wms/core"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer, Logger } from "effect"
import { serverConfig } from "./Config.js"
import * as Server from "./Server.js"

// Logs are JSON lines, each with the request id of the request that wrote it.
Effect.flatMap(serverConfig, (config) =>
  Layer.launch(Server.layer(config)).pipe(Logger.withMinimumLogLevel(config.logLevel))).pipe(
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
