// Validate .glb files with the Khronos glTF validator (npm gltf-validator, installed under .cache/node).
// Usage: node gltf_validate.js VALIDATOR_DIR FILE...; prints one JSON line per file.
"use strict";
const fs = require("fs");
const path = require("path");
const validator = require(path.resolve(process.argv[2]));

async function main() {
  for (const file of process.argv.slice(3)) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
      uri: path.basename(file), maxIssues: 200,
    });
    const issues = report.issues;
    const errors = issues.messages.filter((m) => m.severity === 0)
      .map((m) => `${m.code} ${m.pointer || ""}: ${m.message}`);
    console.log(JSON.stringify({ file, errors: issues.numErrors, warnings: issues.numWarnings,
      validator: report.validatorVersion, messages: errors.slice(0, 20) }));
  }
}

main().catch((err) => { console.error(String(err)); process.exit(2); });
