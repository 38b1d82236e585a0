// Types for the rule's test (test/eslint/tag-id.test.ts), which imports it from TypeScript.
import type { Rule } from "eslint"

declare const rule: Rule.RuleModule
export default rule
