import { Layer } from "effect"
import { PackageFiring } from "./PackageFiring.js"
import { PackageMediaHolders } from "./PackageMediaHolders.js"
import { PostListQuery } from "./PostListQuery.js"
import { PostListRepo } from "./PostListRepo.js"
import { PostLists } from "./PostLists.js"
import { PostListsHttpLive } from "./PostListsHttp.js"

/** Post lists: the routes, the service, the views, and what the list entity writes and fires through. */
export const PostListsLive = PostListsHttpLive.pipe(
  Layer.provideMerge(Layer.mergeAll(PostLists.layer, PackageFiring.layer)),
  Layer.provideMerge(Layer.mergeAll(PostListQuery.layer, PostListRepo.layer))
)

/** Scheduled posts laid over the brand slots as holders of library files (needs only SQL and the cluster). */
export const PostListMediaHoldersLive = PackageMediaHolders.pipe(Layer.provide(PostListQuery.layer))
