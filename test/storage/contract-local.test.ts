import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { blobContract } from "./BlobContract.js"
import { tempRoot } from "./helpers.js"

blobContract("local folder", LocalBlobStorage.layerAt(tempRoot("contract")))
