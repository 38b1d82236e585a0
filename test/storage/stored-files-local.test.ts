import { storedFilesSuite } from "./StoredFiles.js"
import { localFolderView } from "./StoreViews.js"

storedFilesSuite("stored_files_local", localFolderView())
