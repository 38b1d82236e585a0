/**
 * s3rver as its own process for `npm run bench:storage`: the store's memory and CPU stay out of the measured
 * process, as a real store's would. Serves bucket `clipwright-test` on 127.0.0.1:$PORT from $S3_DIR; prints ready.
 */
import "../../test/storage/AtomicS3rver.js"
import S3rver from "s3rver"
import { TEST_BUCKET } from "../../test/storage/S3Harness.js"

const server = new S3rver({
  address: "127.0.0.1",
  port: Number(process.env["PORT"]),
  silent: true,
  directory: process.env["S3_DIR"]!,
  configureBuckets: [{ name: TEST_BUCKET }]
})
await server.run()
process.stdout.write("ready\n")
process.once("SIGTERM", () => void server.close().finally(() => process.exit(0)))
