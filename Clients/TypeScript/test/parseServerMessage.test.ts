import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseServerMessage, ProtocolViolation, type ViolationKind } from "../src/index.js";
import { changeset, filling, todo } from "./support/changesets.js";

/** Asserts that `data` is refused with a violation of `kind` whose message matches `pattern`. */
function assertRefused(data: unknown, kind: ViolationKind, pattern: RegExp): void {
    assert.throws(
        () => parseServerMessage(data),
        (error: unknown) => {
            assert.ok(error instanceof ProtocolViolation, `not a ProtocolViolation: ${String(error)}`);
            assert.equal(error.kind, kind);
            assert.match(error.message, pattern);
            return true;
        },
    );
}

/** Asserts that `message`, sent as JSON, is refused as `assertRefused` says. */
function assertRefusedJSON(message: object, kind: ViolationKind, pattern: RegExp): void {
    assertRefused(JSON.stringify(message), kind, pattern);
}

const results = { v: 1, type: "results", token: "t1", changeset: filling([["Work", [todo(1)]]]) };
const deletion = changeset({ countsBefore: [1], countsAfter: [0], rowsDeleted: [[0, 0]] });

describe("parseServerMessage", () => {
    it("reads every type of message", () => {
        const messages = [
            results,
            { v: 1, type: "batch", token: "t2", changeset: deletion },
            { v: 1, type: "resumed", token: "t3", changeset: deletion },
            { v: 1, type: "reset", reason: "expired" },
            { v: 1, type: "moved", id: 7 },
            { v: 1, type: "moved", id: 8, error: { code: "invalid", message: "no row 3" } },
            { v: 1, type: "status", status: "catchingUp" },
            { v: 1, type: "error", error: { code: "unavailable", message: "the list cannot follow the database" } },
            { v: 1, type: "refused", error: { code: "forbidden", message: "'ownerID' cannot be filtered" } },
        ];
        for (const message of messages) assert.deepEqual(parseServerMessage(JSON.stringify(message)), message);
    });

    it("reads a changeset as the Swift encoder writes it: a transaction, a moved row's object absent or null", () => {
        const moved = [
            { from: [0, 0], to: [0, 1], object: null },
            { from: [0, 1], to: [0, 0] },
        ];
        const wire = {
            ...deletion,
            transaction: 42,
            countsBefore: [2],
            countsAfter: [2],
            rows: { deleted: [], inserted: [], moved, updated: [] },
        };
        const message = parseServerMessage(JSON.stringify({ v: 1, type: "batch", token: "t", changeset: wire }));
        assert.ok(message.type === "batch");
        assert.equal(message.changeset.transaction, 42);
        assert.deepEqual(
            message.changeset.rows.moved.map((move) => move.object),
            [undefined, undefined],
        );
    });

    it("decodes objects with the given function", () => {
        const message = parseServerMessage(JSON.stringify(results), (object) => ({
            id: Number(object["id"]),
            title: String(object["title"]).toUpperCase(),
        }));
        assert.ok(message.type === "results");
        assert.equal(message.changeset.sections.inserted[0]?.objects[0]?.title, "TODO 1");
    });

    it("says which object a decoder refused", () => {
        const refuse = (): never => {
            throw new Error("no date");
        };
        assert.throws(
            () => parseServerMessage(JSON.stringify(results), refuse),
            /results\.changeset\.sections\.inserted\[0\]\.objects\[0\] cannot be decoded: no date/,
        );
    });

    it("refuses another protocol version or changeset version", () => {
        assertRefusedJSON({ ...results, v: 2 }, "version", /protocol version is 2; this client speaks version 1/);
        assertRefusedJSON({ type: "status", status: "live" }, "version", /protocol version is missing/);
        const version2 = { ...results.changeset, version: 2 };
        assertRefusedJSON({ ...results, changeset: version2 }, "version", /results\.changeset\.version is 2/);
    });

    it("refuses an unknown type", () => {
        assertRefusedJSON({ v: 1, type: "hello" }, "type", /type "hello" is not one this client knows/);
    });

    it("refuses garbage, saying what it is", () => {
        assertRefused("{not json", "json", /not JSON: "\{not json"/);
        assertRefused(new ArrayBuffer(4), "json", /not binary data/);
        assertRefused("[1, 2]", "field", /the message is not an object/);
        assertRefused("null", "field", /the message is not an object/);
    });

    it("refuses a missing or mistyped field, naming it", () => {
        assertRefusedJSON({ ...results, token: 5 }, "field", /results\.token is not a string: 5/);
        assertRefusedJSON({ v: 1, type: "batch", token: "t" }, "field", /batch\.changeset is not an object: missing/);
        const shortPath = { ...deletion, rows: { ...deletion.rows, deleted: [[0]] } };
        assertRefusedJSON(
            { v: 1, type: "batch", token: "t", changeset: shortPath },
            "field",
            /batch\.changeset\.rows\.deleted\[0\] is not a \[section, row\] pair: \[0\]/,
        );
        const negative = { ...results.changeset, countsAfter: [-1] };
        assertRefusedJSON({ ...results, changeset: negative }, "field", /countsAfter\[0\] is not a count/);
        assertRefusedJSON({ v: 1, type: "status", status: "asleep" }, "field", /status\.status is not one of/);
        assertRefusedJSON({ v: 1, type: "moved", id: "7" }, "field", /moved\.id is not an integer/);
        const noMessage = { v: 1, type: "error", error: { code: "internal" } };
        assertRefusedJSON(noMessage, "field", /error\.error\.message is not a string: missing/);
    });

    it("shortens a long value in its message", () => {
        assert.throws(
            () => parseServerMessage(JSON.stringify({ ...results, token: ["x".repeat(500)] })),
            (error: unknown) => error instanceof ProtocolViolation && error.message.length < 120,
        );
    });
});
