#!/usr/bin/env node
// Run by `prepare` after the build: initdb once at install time, so the first start of the embedded default loads a
// ready data directory (about 1 s) instead of running initdb itself (6–12 s). Never fails the install: without a
// template the first start runs initdb as before.
import { templateFile, writeTemplate } from "../dist/src/sql/PgliteTemplate.js"

try {
  const file = templateFile()
  if (file !== undefined) {
    await writeTemplate(file)
    console.log(`PGlite template: ${file}`)
  }
} catch (error) {
  console.warn(`No PGlite template (the first start will run initdb): ${error}`)
}
