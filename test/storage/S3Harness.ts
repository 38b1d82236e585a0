import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import "./AtomicS3rver.js"
import S3rver from "s3rver"

export const TEST_BUCKET = "clipwright-test"
/** s3rver's fixed credentials; it checks signatures, so the client signs with these. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const

/**
 * An S3-compatible server on loopback (s3rver, from npm): nothing from outside. `stop` and `start` take it down and
 * bring it back on the same port with the same objects, for the "store down" faults.
 */
export interface S3Harness {
  readonly endpoint: string
  readonly port: number
  /** Where s3rver keeps the objects, to change or remove one behind the service's back. */
  readonly directory: string
  readonly stop: () => Promise<void>
  readonly start: () => Promise<void>
  readonly close: () => Promise<void>
  /** The environment a node needs to keep its files in the bucket (under `prefix`). */
  readonly env: (prefix?: string) => Record<string, string>
}

export const startS3 = async (label = "s3"): Promise<S3Harness> => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `cw-${label}-`))
  const make = (port: number) =>
    new S3rver({ address: "127.0.0.1", port, silent: true, directory, configureBuckets: [{ name: TEST_BUCKET }] })
  let server: S3rver | undefined = make(0)
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const stop = async () => {
    const running = server
    server = undefined
    if (running === undefined) return
    running.httpServer?.closeAllConnections()
    await running.close()
  }
  return {
    endpoint,
    port,
    directory,
    stop,
    start: async () => {
      if (server !== undefined) return
      server = make(port)
      await server.run()
    },
    close: async () => {
      await stop()
      fs.rmSync(directory, { recursive: true, force: true })
    },
    env: (prefix = "") => ({
      STORAGE_URL: `s3://${TEST_BUCKET}${prefix === "" ? "" : `/${prefix}`}`,
      S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey
    })
  }
}
