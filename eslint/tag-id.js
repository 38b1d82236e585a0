// Local ESLint rule `arch/tag-id`: a service's `Context.Tag` id is `clipwright/<folder under the root>/<class name>`,
// e.g. `class Jobs extends Context.Tag("clipwright/publishing/views/Jobs")` in src/publishing/views/Jobs.ts.
//
// Why it exists: a Tag id is what Effect prints when a service is missing from a layer ("Service not found:
// clipwright/…"). Ids written by hand went stale as files moved (issue 24 found `clipwright/jobs/…` for views that
// had left src/jobs, `clipwright/services/…` and `clipwright/sql/…` for area services): an id that names the folder
// sends the reader to the file. `--fix` rewrites the id.
import path from "node:path"

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "suggestion",
    fixable: "code",
    schema: [{ type: "object", properties: { root: { type: "string" } }, required: ["root"] }],
    messages: { id: "Context.Tag id should be \"{{expected}}\" (clipwright/<folder>/<class>), not \"{{actual}}\"." }
  },
  create(context) {
    const root = context.options[0].root
    const folder = path.relative(root, path.dirname(context.filename)).split(path.sep).filter((part) => part !== "")
    return {
      CallExpression(node) {
        if (!isContextTag(node.callee)) return
        const klass = findClass(node)
        if (klass?.id == null || klass.superClass == null || !within(node, klass.superClass)) return
        const [idNode] = node.arguments
        if (idNode?.type !== "Literal" || typeof idNode.value !== "string") return
        const expected = ["clipwright", ...folder, klass.id.name].join("/")
        if (idNode.value === expected) return
        context.report({
          node: idNode,
          messageId: "id",
          data: { expected, actual: idNode.value },
          fix: (fixer) => fixer.replaceText(idNode, JSON.stringify(expected))
        })
      }
    }
  }
}

/** `Context.Tag` itself (the superclass is `Context.Tag("…")<Self, Shape>()`, so the call sits inside it). */
const isContextTag = (callee) =>
  callee.type === "MemberExpression" && callee.object.type === "Identifier" && callee.object.name === "Context" &&
  callee.property.type === "Identifier" && callee.property.name === "Tag"

const within = (node, outer) => node.range[0] >= outer.range[0] && node.range[1] <= outer.range[1]

const findClass = (node) => {
  let current = node.parent
  while (current != null && current.type !== "ClassDeclaration") current = current.parent
  return current
}
