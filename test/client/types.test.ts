import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { clientTypes, clientTypesFile } from "../../scripts/ClientTypes.js"

describe("the fetch client's types", () => {
  it("are what `npm run client:types` writes from the OpenAPI document", async () => {
    // A changed route, body or answer without a regeneration fails here: run `npm run client:types` and commit.
    expect(fs.readFileSync(clientTypesFile, "utf8")).toBe(await clientTypes())
  }, 60_000)
})
