// Lints the OpenAPI document the server serves at /openapi.json with Redocly CLI, by the rules of
// redocly.yaml: the document is written from the built package (no server needed) to a temporary
// file. Run by the test command after the build; exits non-zero on any problem Redocly reports.
import { OpenApi } from "@effect/platform"
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { WarehouseApi } from "../dist/Api.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const directory = mkdtempSync(join(tmpdir(), "wms-openapi-"))
try {
  const document = join(directory, "openapi.json")
  writeFileSync(document, JSON.stringify(OpenApi.fromApi(WarehouseApi), null, 2))
  const redocly = join(root, "node_modules", "@redocly", "cli", "bin", "cli.js")
  const { status } = spawnSync(
    process.execPath,
    [redocly, "lint", document, "--config", join(root, "redocly.yaml")],
    { stdio: "inherit", env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } }
  )
  process.exitCode = status ?? 1
} finally {
  rmSync(directory, { recursive: true, force: true })
}
