import { Context, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { AppConfig } from "../Config.js"

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code

const readToken = (file: string) =>
  fs.readFile(file, "utf8").then(
    (text) => text.trim(),
    (error) => codeOf(error) === "ENOENT" ? "" : Promise.reject(error)
  )

/**
 * The token kept in `dataDir/admin-token`, drawn and written when there is none. The file appears whole or not at
 * all (written aside, then hard-linked into place, which fails when the name exists), so nodes starting together on
 * one DATA_DIR agree on the first token linked instead of each keeping its own.
 */
export const tokenFile = (dataDir: string) =>
  Effect.tryPromise(async () => {
    const file = path.join(dataDir, "admin-token")
    const existing = await readToken(file)
    if (existing !== "") return { file, token: existing, drawn: false }
    await fs.mkdir(dataDir, { recursive: true })
    const token = crypto.randomBytes(24).toString("base64url")
    const aside = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}`
    await fs.writeFile(aside, token + "\n", { mode: 0o600 })
    try {
      await fs.link(aside, file)
      return { file, token, drawn: true }
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw error
      const first = await readToken(file)
      if (first === "") throw new Error(`${file} is empty: delete it, or set ADMIN_TOKEN`)
      return { file, token: first, drawn: false }
    } finally {
      await fs.rm(aside, { force: true })
    }
  }).pipe(Effect.orDie)

/** ADMIN_TOKEN, or a random one kept in DATA_DIR/admin-token (shared by nodes sharing DATA_DIR), printed once. */
const resolve = Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isSome(config.adminToken)) return config.adminToken.value
  const { drawn, file, token } = yield* tokenFile(config.dataDir)
  if (drawn) yield* Effect.sync(() => console.log(`Admin token (also in ${file}): ${token}`))
  return token
})

export class AdminToken extends Context.Tag("clipwright/http/AdminToken")<AdminToken, string>() {
  static readonly layer = Layer.effect(AdminToken, resolve)
}

export const tokensMatch = (expected: string, given: string) => {
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}
