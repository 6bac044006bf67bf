#!/usr/bin/env node
/**
 * The bundled server, configured by environment variables: the package's `wms-server`. `npm start`
 * runs it bundled into one file, `dist/server.bundle.js` (`bundle.js`), which starts faster.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, Layer } from "effect"
import { serverConfig } from "./Config.js"
import * as Server from "./Server.js"

Effect.map(serverConfig, Server.layer).pipe(
  Layer.unwrapEffect,
  Layer.launch,
  NodeRuntime.runMain
)
