import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyChangeset, ChangesetMismatch, type Section } from "../src/index.js";
import { changeset, filling, fillingTodos, shape, todo, type Changes, type Todo } from "./support/changesets.js";

function list(...sections: [string, number[]][]): readonly Section<Todo>[] {
    return applyChangeset([], fillingTodos(...sections));
}

function apply(sections: readonly Section<Todo>[], changes: Changes<Todo>): readonly Section<Todo>[] {
    return applyChangeset(sections, changeset(changes));
}

describe("applyChangeset", () => {
    it("fills an empty list from the changeset of `results`", () => {
        const sections = applyChangeset([], filling([["Work", [todo(1), todo(2)]], ["Home", [todo(3)]]]));
        assert.deepEqual(shape(sections), [["Work", [1, 2]], ["Home", [3]]]);
    });

    it("inserts rows at their paths in the new list, lowest first", () => {
        const after = apply(list(["Work", [1, 2, 3]]), {
            countsBefore: [3],
            countsAfter: [5],
            rowsInserted: [{ at: [0, 0], object: todo(10) }, { at: [0, 2], object: todo(11) }],
        });
        assert.deepEqual(shape(after), [["Work", [10, 1, 11, 2, 3]]]);
    });

    it("deletes rows at their paths in the old list", () => {
        const before = list(["Work", [1, 2, 3]]);
        const after = apply(before, { countsBefore: [3], countsAfter: [1], rowsDeleted: [[0, 0], [0, 2]] });
        assert.deepEqual(shape(after), [["Work", [2]]]);
    });

    it("moves a row and keeps its object when the move carries none", () => {
        const before = list(["Work", [1, 2, 3]]);
        const after = apply(before, { countsBefore: [3], countsAfter: [3], rowsMoved: [{ from: [0, 0], to: [0, 2] }] });
        assert.deepEqual(shape(after), [["Work", [2, 3, 1]]]);
        assert.equal(after[0]?.objects[2], before[0]?.objects[0]);
    });

    it("moves a row to another section with its changed object", () => {
        const after = apply(list(["Work", [1, 2]], ["Done", [3]]), {
            countsBefore: [2, 1],
            countsAfter: [1, 2],
            rowsMoved: [{ from: [0, 0], to: [1, 1], object: todo(1, "finished") }],
        });
        assert.deepEqual(shape(after), [["Work", [2]], ["Done", [3, 1]]]);
        assert.equal(after[1]?.objects[1]?.title, "finished");
    });

    it("removes in the old index space and places in the new one, whatever the order in the changeset", () => {
        // [1, 2, 3, 4]: delete 2, move 4 to the top, insert 9 third.
        const after = apply(list(["Work", [1, 2, 3, 4]]), {
            countsBefore: [4],
            countsAfter: [4],
            rowsDeleted: [[0, 1]],
            rowsInserted: [{ at: [0, 2], object: todo(9) }],
            rowsMoved: [{ from: [0, 3], to: [0, 0] }],
        });
        assert.deepEqual(shape(after), [["Work", [4, 1, 9, 3]]]);
    });

    it("updates a row at its path in the new list, after the other changes", () => {
        const after = apply(list(["Work", [1, 2]]), {
            countsBefore: [2],
            countsAfter: [1],
            rowsDeleted: [[0, 0]],
            rowsUpdated: [{ from: [0, 1], to: [0, 0], object: todo(2, "renamed") }],
        });
        assert.deepEqual(after[0]?.objects, [todo(2, "renamed")]);
    });

    it("inserts a section with its objects, leaving the others as they were", () => {
        const before = list(["Work", [1]]);
        const after = apply(before, {
            countsBefore: [1],
            countsAfter: [2, 1],
            sectionsInserted: [{ index: 0, name: "Inbox", objects: [todo(5), todo(6)] }],
        });
        assert.deepEqual(shape(after), [["Inbox", [5, 6]], ["Work", [1]]]);
        assert.equal(after[1], before[0], "an untouched section is the same object");
    });

    it("deletes a section with its rows", () => {
        const before = list(["Work", [1]], ["Home", [2, 3]]);
        const after = apply(before, { countsBefore: [1, 2], countsAfter: [1], sectionsDeleted: [1] });
        assert.deepEqual(shape(after), [["Work", [1]]]);
    });

    it("moves a section with its rows, and keeps it the same object", () => {
        const before = list(["Work", [1]], ["Home", [2, 3]]);
        const after = apply(before, { countsBefore: [1, 2], countsAfter: [2, 1], sectionsMoved: [{ from: 1, to: 0 }] });
        assert.deepEqual(shape(after), [["Home", [2, 3]], ["Work", [1]]]);
        assert.equal(after[0], before[1]);
    });

    it("moves a row into a section that arrives in the same changeset", () => {
        const after = apply(list(["Work", [1, 2]]), {
            countsBefore: [2],
            countsAfter: [1, 1],
            sectionsInserted: [{ index: 1, name: "Done", objects: [] }],
            rowsMoved: [{ from: [0, 1], to: [1, 0] }],
        });
        assert.deepEqual(shape(after), [["Work", [1]], ["Done", [2]]]);
    });

    it("returns a new frozen list and leaves the old one as it was", () => {
        const before = list(["Work", [1, 2]]);
        const after = apply(before, { countsBefore: [2], countsAfter: [1], rowsDeleted: [[0, 0]] });
        assert.notEqual(after, before);
        assert.deepEqual(shape(before), [["Work", [1, 2]]]);
        assert.ok(Object.isFrozen(after) && Object.isFrozen(after[0]) && Object.isFrozen(after[0]?.objects));
    });

    it("refuses a changeset for other counts than the list's, saying both", () => {
        assert.throws(
            () => apply(list(["Work", [1, 2]]), { countsBefore: [3], countsAfter: [3] }),
            (error: unknown) => error instanceof ChangesetMismatch && /\[2\].*\[3\]/.test(error.message),
        );
    });

    it("refuses a changeset whose result has other counts than it announced", () => {
        const before = list(["Work", [1, 2]]);
        assert.throws(
            () => apply(before, { countsBefore: [2], countsAfter: [2], rowsDeleted: [[0, 0]] }),
            /gives \[1\] rows per section, it announced \[2\]/,
        );
        assert.deepEqual(shape(before), [["Work", [1, 2]]]);
    });

    it("refuses paths and sections outside the list", () => {
        const before = list(["Work", [1, 2]]);
        assert.throws(
            () => apply(before, { countsBefore: [2], countsAfter: [1], rowsDeleted: [[0, 2]] }),
            /a deleted row \[0,2\] is outside/,
        );
        assert.throws(
            () =>
                apply(before, { countsBefore: [2], countsAfter: [3], rowsInserted: [{ at: [1, 0], object: todo(3) }] }),
            /an inserted row \[1,0\] is outside/,
        );
        assert.throws(
            () => apply(before, { countsBefore: [2], countsAfter: [], sectionsDeleted: [1] }),
            /a deleted or moved section 1 is outside/,
        );
        assert.throws(
            () =>
                apply(before, {
                    countsBefore: [2],
                    countsAfter: [2, 0],
                    sectionsInserted: [{ index: 2, name: "Later", objects: [] }],
                }),
            /section 2 is outside/,
        );
    });
});
