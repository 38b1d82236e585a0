import { expect, it } from "vitest"
import { storedFilesSuite } from "./StoredFiles.js"
import { s3rverView } from "./StoreViews.js"

// The store's hooks are registered first, so s3rver is up before the node starts and closed after it stops.
const view = s3rverView("stored-files", "clipwright")
const rig = storedFilesSuite("stored_files_s3", view)

it("the node's own DATA_DIR holds none of the files the bucket keeps", () => {
  expect(view.localFiles(rig.node)).toEqual([])
})
