#!/usr/bin/env node
/**
 * `npm start`: the bundled server, configured by environment variables.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { serverConfig } from "./Config.js"
import * as Server from "./Server.js"

Effect.map(serverConfig, Server.layer).pipe(
  Layer.unwrapEffect,
  Layer.launch,
  NodeRuntime.runMain
)
