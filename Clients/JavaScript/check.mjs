// Replays a recorded stream of wire changesets through applyChangeset and checks the list after every
// batch against what the server's controller held (FetchKit's tests write the file).
//
//   node Clients/JavaScript/check.mjs recording.json
//
// recording.json: {"key": "id", "steps": [{"batch": <wire changeset>, "expected": [{"name": …, "keys": […]}]}]}
// Exits 0 when every step matches, 1 with the first difference otherwise.
import { readFileSync } from "node:fs";
import { applyChangeset } from "./fetchkit-changeset.js";

const recording = JSON.parse(readFileSync(process.argv[2], "utf8"));
let list = [];
recording.steps.forEach((step, index) => {
  try {
    list = applyChangeset(list, step.batch);
  } catch (error) {
    console.error(`step ${index}: ${error.message}`);
    process.exit(1);
  }
  const shown = list.map((section) => ({ name: section.name, keys: section.objects.map((object) => object[recording.key]) }));
  const expected = step.expected.map((section) => ({ name: section.name, keys: section.keys }));
  if (JSON.stringify(shown) !== JSON.stringify(expected)) {
    console.error(`step ${index}: the list is ${JSON.stringify(shown)}, the server holds ${JSON.stringify(expected)}`);
    process.exit(1);
  }
});
console.log(`ok: ${recording.steps.length} batches applied`);
