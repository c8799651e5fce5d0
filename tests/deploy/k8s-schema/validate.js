// Validates every object of the YAML files given against the Kubernetes
// OpenAPI schema, with the JSON-schema validators kubernetes-models generates
// from it (pinned in package.json): unknown fields, wrong types, missing
// required fields all fail. Prints one line per object; exits 1 on any error.
//   node validate.js FILE.yaml...
"use strict";
const fs = require("fs");
const yaml = require("js-yaml");

// apiVersion -> the kubernetes-models module with its kinds.
function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : [null, apiVersion];
  const path = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  let mod;
  try {
    mod = require(path);
  } catch (e) {
    return null;
  }
  return mod[kind] || null;
}

let failed = 0;
for (const file of process.argv.slice(2)) {
  const docs = yaml.loadAll(fs.readFileSync(file, "utf8")).filter((d) => d);
  for (const doc of docs) {
    const what = `${file}: ${doc.kind}/${doc.metadata && doc.metadata.name}`;
    const Model = modelFor(doc.apiVersion || "", doc.kind || "");
    if (!Model) {
      console.error(`${what}: unknown apiVersion/kind ${doc.apiVersion} ${doc.kind}`);
      failed++;
      continue;
    }
    try {
      new Model(doc).validate();
      console.log(`ok: ${what} (${doc.apiVersion})`);
    } catch (e) {
      console.error(`${what}: ${e.message}`);
      failed++;
    }
  }
}
process.exit(failed ? 1 : 0);
