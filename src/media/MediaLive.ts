import { Layer } from "effect"
import { MediaFiles } from "./MediaFiles.js"
import { MediaHttpLive, MediaPreviewHttpLive } from "./MediaHttp.js"
import { MediaLibrary } from "./MediaLibrary.js"
import { MediaRepo } from "./MediaRepo.js"
import { MediaUploads } from "./MediaUploads.js"
import { StorageHttpLive } from "./StorageHttp.js"
import { StorageRepo } from "./StorageRepo.js"
import { StorageUsage } from "./StorageUsage.js"

/** The media library and the workspace's storage accounting; needs a `MediaHolders` from the areas holding files. */
export const MediaLive = Layer.mergeAll(MediaHttpLive, MediaPreviewHttpLive, StorageHttpLive).pipe(
  Layer.provideMerge(MediaLibrary.layer),
  Layer.provideMerge(Layer.mergeAll(MediaUploads.layer, MediaFiles.layer)),
  Layer.provideMerge(StorageUsage.layer),
  Layer.provideMerge(Layer.mergeAll(MediaRepo.layer, StorageRepo.layer))
)
