// The strict half of the schema check: every object of the YAML files given
// is written out as a TypeScript object literal typed with kubernetes-types
// (the Kubernetes API's types, pinned in package.json) and compiled with
// tsc. Excess-property checks on literals make an unknown or misspelt field
// an error anywhere in the object, which the OpenAPI schema allows.
//   node strict.js FILE.yaml...
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const yaml = require("js-yaml");
const ts = require("typescript");

// apiVersion -> kubernetes-types module ("v1" is core/v1).
function moduleFor(apiVersion) {
  if (!apiVersion.includes("/")) return `kubernetes-types/core/${apiVersion}`;
  const [group, version] = apiVersion.split("/");
  return `kubernetes-types/${group.replace(/\.k8s\.io$/, "")}/${version}`;
}

const lines = [];
const where = [];
let n = 0;
for (const file of process.argv.slice(2)) {
  for (const doc of yaml.loadAll(fs.readFileSync(file, "utf8")).filter((d) => d)) {
    const name = `o${n++}`;
    lines.push(`import type { ${doc.kind} as T${name} } from ${JSON.stringify(moduleFor(doc.apiVersion))};`);
    lines.push(`export const ${name}: T${name} = ${JSON.stringify(doc, null, 1)};`);
    where.push(`${file}: ${doc.kind}/${doc.metadata && doc.metadata.name}`);
  }
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crawl-k8s-ts-"));
const src = path.join(dir, "manifests.ts");
fs.writeFileSync(src, lines.join("\n") + "\n");
const program = ts.createProgram([src], {
  strict: true, noEmit: true, skipLibCheck: true, types: [],
  moduleResolution: ts.ModuleResolutionKind.Node10, module: ts.ModuleKind.CommonJS,
  typeRoots: [], baseUrl: __dirname, paths: { "kubernetes-types/*": [path.join(__dirname, "node_modules/kubernetes-types/*")] },
});
const diags = ts.getPreEmitDiagnostics(program);
for (const d of diags) {
  let at = "";
  if (d.file && d.start !== undefined) {
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    // The object the line belongs to: the last "export const oN" above it.
    const text = d.file.text.split("\n").slice(0, line + 1);
    const decl = text.reverse().find((l) => l.startsWith("export const o"));
    const idx = decl ? Number(decl.match(/^export const o(\d+)/)[1]) : -1;
    at = (idx >= 0 ? where[idx] : "?") + `: line ${line + 1} of ${src}: `;
  }
  console.error(at + ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
if (diags.length === 0) {
  fs.rmSync(dir, { recursive: true });
  console.log(`ok: ${where.length} objects type-check against kubernetes-types (no unknown fields)`);
}
process.exit(diags.length ? 1 : 0);
