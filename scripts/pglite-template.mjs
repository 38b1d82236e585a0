#!/usr/bin/env node
// Run by `prepare` after the build: initdb once at install time, so the first start of the embedded default copies a
// ready data directory (under a second) instead of running initdb itself (6–12 s). Never fails the install: without a
// template the first start runs initdb as before.
import { templateDir, writeTemplate } from "../dist/src/sql/PgliteTemplate.js"

try {
  const dir = templateDir()
  if (dir !== undefined) {
    await writeTemplate(dir)
    console.log(`PGlite template: ${dir}`)
  }
} catch (error) {
  console.warn(`No PGlite template (the first start will run initdb): ${error}`)
}
