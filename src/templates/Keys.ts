import type { Field } from "./format/Fields.js"
import { isRecord } from "./Validate.js"

/** Human-readable description of one input (SPEC "Template input description"). */
export interface KeyNode {
  readonly key: string
  readonly type: Field["type"]
  readonly label: string
  readonly required: boolean
  readonly maxLength?: number
  readonly maxItems?: number
  readonly decimals?: number
  readonly values?: ReadonlyArray<string>
  readonly example?: unknown
  readonly keys?: ReadonlyArray<KeyNode>
  readonly item?: KeyNode
}

const exampleOf = (example: unknown): { readonly example?: unknown } => example === undefined ? {} : { example }

/** Builds the key node of a field; leaf examples are read from the matching place of a worked example. */
export const keyNode = (field: Field, example: unknown): KeyNode => {
  const base = { key: field.key, type: field.type, label: field.label, required: field.required }
  switch (field.type) {
    case "text":
      return { ...base, maxLength: field.maxLength, ...exampleOf(example) }
    case "number":
      return { ...base, decimals: field.decimals, ...exampleOf(example) }
    case "enum":
      return { ...base, values: field.values, ...exampleOf(example) }
    case "list":
      return {
        ...base,
        maxItems: field.maxItems,
        item: keyNode(field.item, Array.isArray(example) ? example[0] : undefined)
      }
    case "group":
      return { ...base, keys: keyNodes(field.fields, example) }
  }
}

export const keyNodes = (fields: ReadonlyArray<Field>, example: unknown): ReadonlyArray<KeyNode> =>
  fields.map((field) => keyNode(field, isRecord(example) ? example[field.key] : undefined))

/** Number of leaf inputs (text, number, enum), counting a list's item once. */
export const countLeafKeys = (nodes: ReadonlyArray<KeyNode>): number =>
  nodes.reduce((count, node) => {
    if (node.keys !== undefined) return count + countLeafKeys(node.keys)
    if (node.item !== undefined) return count + countLeafKeys([node.item])
    return count + 1
  }, 0)
