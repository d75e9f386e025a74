// Applies a wire changeset to a sectioned list as a table view applies a batch.
import type { Section } from "./section.js";
import { SectionDraft } from "./sectionDraft.js";
import { WIRE_CHANGESET_VERSION, type RowPath, type WireChangeset } from "./wireChangeset.js";

/**
 * A changeset that does not apply to the list: the list's counts are not the changeset's `countsBefore`
 * (a batch was missed), a path falls outside the list, or the result's counts are not `countsAfter`.
 * The client is out of step with the server and needs the whole list again.
 */
export class ChangesetMismatch extends Error {
    override readonly name = "ChangesetMismatch";
}

/**
 * The list after `changeset`; `sections` is not modified.
 *
 * Deletes and move sources are removed in the old index space, last first; inserts and move destinations go
 * in at their paths in the new one, first first; then updates replace objects at their new paths. A moved
 * row keeps its object unless the move carries a new one. A section that no change touches is returned as
 * the same object; every new section, and the returned array, is frozen.
 *
 * ```ts
 * let sections: readonly Section<Todo>[] = [];
 * sections = applyChangeset(sections, results.changeset); // inserts every section into the empty list
 * sections = applyChangeset(sections, batch.changeset);
 * ```
 *
 * @throws {ChangesetMismatch} when the changeset does not apply; nothing is changed then.
 */
export function applyChangeset<T>(sections: readonly Section<T>[], changeset: WireChangeset<T>): readonly Section<T>[] {
    if (changeset.version !== WIRE_CHANGESET_VERSION) {
        throw new ChangesetMismatch(`wire changeset version ${changeset.version} is not ${WIRE_CHANGESET_VERSION}`);
    }
    const countsBefore = sections.map((section) => section.objects.length);
    if (!sameNumbers(countsBefore, changeset.countsBefore)) {
        throw new ChangesetMismatch(
            `the list has ${json(countsBefore)} rows per section, ` +
                `the changeset expects ${json(changeset.countsBefore)}`,
        );
    }
    const { rows } = changeset;
    const old = sections.map((section) => SectionDraft.of(section));

    // Objects that move keep their identity; a changed one comes with its new object.
    const moving = rows.moved.map((move) => ({
        to: move.to,
        object: move.object ?? draftAt(old, move.from, "a move's source").object(move.from[1]),
    }));
    // Remove deleted rows and move sources in the old index space, last first.
    const removed = [...rows.deleted, ...rows.moved.map((move) => move.from)].sort(comparePaths).reverse();
    for (const path of removed) {
        draftAt(old, path, "a deleted row").remove(path[1]);
    }
    const kept = rearrangeSections(old, changeset);
    // Insert rows and move destinations in the new index space, first first.
    const placed = [...rows.inserted.map((insert) => ({ to: insert.at, object: insert.object })), ...moving];
    placed.sort((a, b) => comparePaths(a.to, b.to));
    for (const { to, object } of placed) {
        draftAt(kept, to, "an inserted row", { inserting: true }).insert(to[1], object);
    }
    for (const update of rows.updated) {
        draftAt(kept, update.to, "an updated row").replace(update.to[1], update.object);
    }

    const result = kept.map((draft) => draft.finish());
    const countsAfter = result.map((section) => section.objects.length);
    if (!sameNumbers(countsAfter, changeset.countsAfter)) {
        throw new ChangesetMismatch(
            `the changeset gives ${json(countsAfter)} rows per section, it announced ${json(changeset.countsAfter)}`,
        );
    }
    return Object.freeze(result);
}

/** The sections in the new index space: deleted ones dropped, moved ones carried, inserted ones added. */
function rearrangeSections<T>(old: readonly SectionDraft<T>[], changeset: WireChangeset<T>): SectionDraft<T>[] {
    const { deleted, inserted, moved } = changeset.sections;
    for (const index of [...deleted, ...moved.map((move) => move.from)]) {
        if (!(index >= 0 && index < old.length)) {
            throw new ChangesetMismatch(`a deleted or moved section ${index} is outside the list`);
        }
    }
    const deletedIndexes = new Set(deleted);
    const destinations = new Map(moved.map((move) => [move.from, move.to]));
    const kept: SectionDraft<T>[] = [];
    const arriving = inserted.map((insert) => ({
        index: insert.index,
        draft: SectionDraft.inserted(insert.name, insert.objects),
    }));
    old.forEach((draft, index) => {
        if (deletedIndexes.has(index)) return;
        const destination = destinations.get(index);
        if (destination === undefined) kept.push(draft);
        else arriving.push({ index: destination, draft });
    });
    // Inserted and moved sections go in at their new indexes, lowest first.
    arriving.sort((a, b) => a.index - b.index);
    for (const { index, draft } of arriving) {
        if (!(index >= 0 && index <= kept.length)) {
            throw new ChangesetMismatch(`an inserted or moved section ${index} is outside the list`);
        }
        kept.splice(index, 0, draft);
    }
    return kept;
}

/** The draft of the section `path` names, after checking that the path is inside the list. */
function draftAt<T>(
    drafts: readonly SectionDraft<T>[],
    path: RowPath,
    what: string,
    { inserting = false } = {},
): SectionDraft<T> {
    const [section, row] = path;
    const draft = drafts[section];
    if (draft === undefined || row < 0 || row >= draft.count + (inserting ? 1 : 0)) {
        throw new ChangesetMismatch(`${what} ${json(path)} is outside the list`);
    }
    return draft;
}

function comparePaths(a: RowPath, b: RowPath): number {
    return a[0] - b[0] || a[1] - b[1];
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
    return a.length === b.length && a.every((value, index) => value === b[index]);
}

function json(value: unknown): string {
    return JSON.stringify(value);
}
