import { renderKeyframe } from "./src/render/Render.js"
import { pixels, scene } from "./test/render/fixtures.js"
const h = (locale: string, headline: string) => scene({ width: 320, height: 568, locale, content: { headline } }, "bullets")
const ink = async (png: Buffer) => { const { data } = await pixels(png); let n = 0; for (let i = 0; i < data.length; i += 4) if (data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! > 200) n++; return n }
const tofu = (n: number) => String.fromCodePoint(...Array.from({ length: n }, (_, i) => 0xe000 + i))
console.log("ja real", await ink(await renderKeyframe(h("ja", "日本の物価上昇が鈍化"), 29)), "ja tofu", await ink(await renderKeyframe(h("ja", tofu(10)), 29)), "en w/ han (no CJK font)", await ink(await renderKeyframe(h("en", "日本の物価上昇が鈍化"), 29)))
