// Benchmark baseline: web-ifc opens an IFC file and streams all its meshes; prints
// {"open_mesh_s": seconds, "meshes": count} on stdout. Usage: node webifc_mesh.js MODULE_DIR FILE
const path = require("path");
const fs = require("fs");
const WebIFC = require(path.join(process.argv[2], "web-ifc-api-node.js"));

async function main() {
  const api = new WebIFC.IfcAPI();
  await api.Init();
  const data = fs.readFileSync(process.argv[3]);
  const t0 = process.hrtime.bigint();
  const id = api.OpenModel(new Uint8Array(data));
  let meshes = 0;
  api.StreamAllMeshes(id, () => { meshes += 1; });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  api.CloseModel(id);
  process.stdout.write(JSON.stringify({ open_mesh_s: s, meshes: meshes }) + "\n");
}

main().catch((e) => { process.stderr.write(String(e) + "\n"); process.exit(1); });
