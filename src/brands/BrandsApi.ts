import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, NotFound, SchemaValidation } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import { BrandSummary, BrandView, CreateBrandBody, DeleteBrandBody, UpdateBrandBody } from "./Brand.js"
import { BrandStyle } from "./BrandStyle.js"
import { PaletteAnswer, PaletteBody } from "./PaletteBody.js"

const BrandAnswer = Schema.Struct({ brand: BrandView })

export class BrandsApi extends HttpApiGroup.make("brands")
  .add(
    HttpApiEndpoint.get("list", "/brands")
      .addSuccess(Schema.Struct({ brands: Schema.Array(BrandSummary) }))
      .annotateContext(
        doc("List brands", "Every live brand, oldest first, each flattened with the channels wearing it.")
      )
  )
  .add(
    HttpApiEndpoint.get("draft", "/brands/draft")
      .addSuccess(Schema.Struct({ name: Schema.String, style: BrandStyle }))
      .annotateContext(
        doc(
          "Draft a new brand",
          "What create would compose without a body: the first free `New brand N`, identity empty. Stores nothing."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/brands/:id")
      .annotateContext(
        doc(
          "Show a brand",
          "One brand of the workspace: `{ brand: { id, name, enabled, style } }`; another workspace's: 404."
        )
      )
      .setPath(IdPath)
      .addSuccess(BrandAnswer)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("create", "/brands")
      .setPayload(Schema.NullOr(CreateBrandBody))
      .addSuccess(BrandAnswer, { status: 201 })
      .addError(Conflict)
      .annotateContext(
        doc(
          "Create a brand",
          "Without a name the first free `New brand N`; `style` is merged over the draft (identity.name filled from " +
            "the name); file references are set through the slot routes. A name in use is 409."
        )
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/brands/:id")
      .setPath(IdPath)
      .setPayload(UpdateBrandBody)
      .addSuccess(BrandAnswer)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        doc(
          "Update a brand",
          "`style` is deep-merged into the stored style; file references in it are ignored. `style.identity.name` " +
            "renames the brand unless another brand has that name (the save still succeeds); `name` in use is 409."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("palette", "/brands/palette")
      .setPayload(PaletteBody)
      .addSuccess(PaletteAnswer)
      .annotateContext(
        doc(
          "Derive a palette",
          "Derives a palette from one brand colour for a dark or light stage, with WCAG 2.x contrast checks. Every " +
            "palette value is a hex colour (`stage` is the backdrop colour). A missing brand colour is 400 at " +
            "`/palette/brand`. Stores nothing."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/brands/:id/delete")
      .setPath(IdPath)
      .setPayload(DeleteBrandBody)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true), moved: Schema.Number }))
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        doc(
          "Delete a brand",
          "A brand channels wear needs `moveTo` (another brand of the workspace), else 409 naming the count; the " +
            "channels move in the same step. `moved` counts them."
        )
      )
  )
  .addError(SchemaValidation)
  .pipe(workspaceGroup("Brands", "Brands: the name, style and palette a video wears."))
{}
