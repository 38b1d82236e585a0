import { Context, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { AppConfig } from "../Config.js"

/** ADMIN_TOKEN, or a random one kept in DATA_DIR/admin-token (shared by nodes sharing DATA_DIR), printed once. */
const resolve = Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isSome(config.adminToken)) return config.adminToken.value
  const file = path.join(config.dataDir, "admin-token")
  const existing = yield* Effect.sync(() => fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "")
  if (existing !== "") return existing
  const token = crypto.randomBytes(24).toString("base64url")
  yield* Effect.sync(() => {
    fs.mkdirSync(config.dataDir, { recursive: true })
    fs.writeFileSync(file, token + "\n", { mode: 0o600 })
  })
  yield* Effect.sync(() => console.log(`Admin token (also in ${file}): ${token}`))
  return token
})

export class AdminToken extends Context.Tag("clipwright/services/AdminToken")<AdminToken, string>() {
  static readonly layer = Layer.effect(AdminToken, resolve)
}

export const tokensMatch = (expected: string, given: string) => {
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}
