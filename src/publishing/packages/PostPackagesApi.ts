import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { NotFound, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"

const Tz = Schema.Struct({
  tz: Schema.optional(Schema.String).annotations({ description: "IANA time zone of the JSON's times; default UTC." })
})

const description = "A ZIP of the post's video and a JSON of the post (times in `tz`, an IANA zone; UTC by default). " +
  "Without a video (still rendering, failed, cancelled, removed to make room) it carries a text file whose name is " +
  "the reason instead. Another workspace's id is 404."

/** A post's package as a ZIP, by its job (post group) or by the post. */
export class PostPackagesApi extends HttpApiGroup.make("postPackages")
  .add(
    HttpApiEndpoint.get("job", "/jobs/:id/download")
      .annotateContext(doc("Download a job's post package", description))
      .setPath(IdPath)
      .setUrlParams(Tz)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/zip" }))
  )
  .add(
    HttpApiEndpoint.get("post", "/posts/:id/package")
      .annotateContext(doc("Download a post's package", description))
      .setPath(IdPath)
      .setUrlParams(Tz)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/zip" }))
  )
  .addError(NotFound)
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup("Post packages", "Everything a post is, in one ZIP: for people who publish by hand or keep records.")
  )
{}
