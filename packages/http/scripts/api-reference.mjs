// Writes docs/API.md from the built package: `npm run docs:api` builds it first.
import { readFileSync, writeFileSync } from "node:fs"
import { apiReference } from "../dist/derived/ApiReference.js"

const intro = readFileSync(new URL("./api-intro.md", import.meta.url), "utf8")
writeFileSync(new URL("../../../docs/API.md", import.meta.url), apiReference(intro))
