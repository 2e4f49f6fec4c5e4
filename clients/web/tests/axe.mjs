// What the browser tests share: the two screen sizes of issue 28 and axe-core's check of a page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

// axe-core's serious and critical violations on the page as it is, each with a few of the elements at fault.
export async function axe(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const found = await window.axe.run(document, { resultTypes: ["violations"] });
    return found.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")}: ${n.failureSummary.split("\n").slice(1, 2).join("")}`),
    }));
  });
}
