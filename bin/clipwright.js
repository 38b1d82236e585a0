#!/usr/bin/env node
// Launcher for the operator CLI: registers tsx so the CLI itself stays TypeScript (src/cli/).
import { register } from "tsx/esm/api"

register()
await import(new URL("../src/cli/main.ts", import.meta.url).href)
