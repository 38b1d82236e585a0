#!/usr/bin/env node
// The npm registry mirror of our build machines serves only linux-x64 builds of platform-specific packages, so
// `npm install` writes a package-lock.json without the other platforms' optional packages, and `npm ci` then
// refuses that lockfile ("Missing: … from lock file"). This adds the missing optional entries, with the os/cpu/libc
// their names declare, so `npm ci` skips them on other platforms. Run it after every `npm install` that changes
// package-lock.json: `node scripts/complete-lockfile.mjs`.
import * as fs from "node:fs"

const file = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(fs.readFileSync(file, "utf8"))
const packages = lock.packages

const oses = ["darwin", "linux", "win32", "android", "freebsd", "openbsd", "netbsd", "sunos", "aix", "openharmony"]
const cpus = ["x64", "arm64", "arm", "ia32", "riscv64", "loong64", "ppc64", "s390x", "mips64el", "wasm32"]

const platformOf = (name) => {
  const parts = name.split("/").pop().split("-")
  const os = oses.find((o) => parts.includes(o) || (o === "win32" && parts.includes("windows")))
  const cpu = cpus.find((c) => parts.includes(c) || (c === "arm" && parts.includes("arm")))
  const libc = parts.includes("musl") ? "musl" : parts.includes("gnu") || parts.includes("gnueabihf") ? "glibc" : undefined
  return {
    ...(os === undefined ? {} : { os: [os] }),
    ...(cpu === undefined ? {} : { cpu: [cpu] }),
    ...(libc === undefined || os !== "linux" ? {} : { libc: [libc] })
  }
}

let added = 0
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path === "" ? "" : `${path}/`}node_modules/${name}`
    if (packages[nested] !== undefined || packages[`node_modules/${name}`] !== undefined) continue
    packages[`node_modules/${name}`] = { version, optional: true, ...platformOf(name) }
    added++
  }
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n")
console.log(`package-lock.json: ${added} optional platform entries added`)
