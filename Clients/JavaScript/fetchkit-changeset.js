// FetchKit's wire changesets, applied in JavaScript: the reference client for browsers and Node.
//
// A FetchKit server sends one JSON message per batch (Swift: `WireChangeset(update)`, version 1):
//
//   {"version": 1, "transaction": 42, "countsBefore": [2, 1], "countsAfter": [3],
//    "sections": {"deleted": [1], "inserted": [{"index": 0, "name": "Work", "objects": [...]}],  // with its rows
//                 "moved": [{"from": 0, "to": 1}]},
//    "rows": {"deleted": [[0, 1]], "inserted": [{"at": [0, 2], "object": {...}}],
//             "moved": [{"from": [1, 0], "to": [0, 0], "object": {...}}],   // object only when it changed too
//             "updated": [{"from": [0, 1], "to": [0, 1], "object": {...}}]}}
//
// A list is an array of sections, `{name, objects}`. `applyChangeset(list, changeset)` returns the new list
// (the old one is not modified): deletes and move sources in the old index space, last first; inserts and
// move destinations in the new one, first first; then updates — as a table view applies a batch. It throws
// a `ChangesetMismatch` when the list's row counts are not `countsBefore` (the client missed a batch:
// refetch), a path is outside the list, or the result's counts are not `countsAfter`.
//
//   import { applyChangeset } from "./fetchkit-changeset.js";
//   let list = [];
//   socket.onmessage = (event) => { list = applyChangeset(list, JSON.parse(event.data)); render(list); };
//
// The first message of a stream inserts everything into an empty list.

export const WIRE_VERSION = 1;

export class ChangesetMismatch extends Error {}

export function applyChangeset(list, changeset) {
  if (changeset.version !== WIRE_VERSION) {
    throw new ChangesetMismatch(`wire version ${changeset.version} is not ${WIRE_VERSION}`);
  }
  const counts = list.map((section) => section.objects.length);
  if (!sameNumbers(counts, changeset.countsBefore)) {
    throw new ChangesetMismatch(`the list has ${json(counts)} rows per section, the batch expects ${json(changeset.countsBefore)}`);
  }
  const { sections, rows } = changeset;
  const old = list.map((section) => section.objects.slice());
  const check = (lists, [section, row], what, inserting = false) => {
    if (!(section >= 0 && section < lists.length && row >= 0 && row < lists[section].length + (inserting ? 1 : 0))) {
      throw new ChangesetMismatch(`${what} [${section}, ${row}] is outside the list`);
    }
  };

  // Objects that move keep their identity; a changed one comes with its new object.
  const moving = rows.moved.map((move) => {
    check(old, move.from, "a move from");
    return { to: move.to, object: "object" in move && move.object !== null ? move.object : old[move.from[0]][move.from[1]] };
  });
  // Remove rows in the old index space, last first.
  const removed = [...rows.deleted, ...rows.moved.map((move) => move.from)].sort(comparePaths).reverse();
  for (const path of removed) {
    check(old, path, "a deleted row");
    old[path[0]].splice(path[1], 1);
  }
  // Remove deleted and moved sections; carry the moved ones.
  const deletedSections = new Set(sections.deleted);
  const movedTo = new Map(sections.moved.map((move) => [move.from, move.to]));
  const kept = [];
  const arriving = sections.inserted.map((insert) => ({ index: insert.index, section: { name: insert.name, objects: insert.objects.slice() } }));
  old.forEach((objects, index) => {
    const section = { name: list[index].name, objects };
    if (deletedSections.has(index)) return;
    if (movedTo.has(index)) arriving.push({ index: movedTo.get(index), section });
    else kept.push(section);
  });
  // Insert new and moved sections at their new indexes, lowest first.
  arriving.sort((a, b) => a.index - b.index);
  for (const { index, section } of arriving) {
    if (!(index >= 0 && index <= kept.length)) throw new ChangesetMismatch(`section ${index} is outside the list`);
    kept.splice(index, 0, section);
  }
  // Insert rows and move destinations in the new index space, lowest first.
  const lists = kept.map((section) => section.objects);
  const placed = [...rows.inserted.map((insert) => ({ to: insert.at, object: insert.object })), ...moving]
    .sort((a, b) => comparePaths(a.to, b.to));
  for (const { to, object } of placed) {
    check(lists, to, "an inserted row", true);
    lists[to[0]].splice(to[1], 0, object);
  }
  for (const update of rows.updated) {
    check(lists, update.to, "an updated row");
    lists[update.to[0]][update.to[1]] = update.object;
  }
  const after = lists.map((objects) => objects.length);
  if (!sameNumbers(after, changeset.countsAfter)) {
    throw new ChangesetMismatch(`the batch gives ${json(after)} rows per section, it announced ${json(changeset.countsAfter)}`);
  }
  return kept.map((section, index) => ({ name: section.name, objects: lists[index] }));
}

function comparePaths(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

function sameNumbers(a, b) {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

function json(value) {
  return JSON.stringify(value);
}
