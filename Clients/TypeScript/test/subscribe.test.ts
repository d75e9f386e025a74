// A live list on one connection: opening, results, batches, statuses, errors and moves.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { changeset, shape, todo } from "./support/changesets.js";
import { batchMessage, moveError, openLiveList, resultsMessage, settle } from "./support/liveList.js";

describe("subscribe", () => {
    it("opens with the filter and sort, applies results, then each batch", () => {
        const sort = [{ key: "position" }, { key: "title", ascending: false }];
        const { list, server } = openLiveList({ filter: "done == NO", sort });
        assert.equal(list.status, "connecting");
        const socket = server.last;
        assert.equal(socket.url, "ws://fetchkit.test/todos");
        socket.open();
        assert.deepEqual(socket.sent, [
            {
                v: 1,
                type: "open",
                filter: "done == NO",
                sort: [{ key: "position", ascending: true }, { key: "title", ascending: false }],
            },
        ]);

        let changes = 0;
        list.subscribe(() => (changes += 1));
        socket.receive(resultsMessage("t1", ["Work", [1, 2]]));
        const first = list.getSnapshot();
        assert.equal(first.status, "live");
        assert.deepEqual(shape(first.sections), [["Work", [1, 2]]]);

        const insert = changeset({
            countsBefore: [2],
            countsAfter: [3],
            rowsInserted: [{ at: [0, 2], object: todo(3) }],
        });
        socket.receive(batchMessage("t2", insert));
        const second = list.getSnapshot();
        assert.notEqual(second, first, "a change makes a new snapshot");
        assert.equal(list.getSnapshot(), second, "no change, the same snapshot");
        assert.deepEqual(shape(second.sections), [["Work", [1, 2, 3]]]);
        assert.equal(changes, 2);
        assert.ok(Object.isFrozen(second));
    });

    it("sends no filter, sort or token it does not have", () => {
        const { server } = openLiveList();
        server.last.open();
        assert.deepEqual(server.last.sent, [{ v: 1, type: "open" }]);
    });

    it("stops telling a listener once it unsubscribes", () => {
        const { list, server } = openLiveList();
        let changes = 0;
        const unsubscribe = list.subscribe(() => (changes += 1));
        server.last.open();
        server.last.receive(resultsMessage("t1", ["Work", [1]]));
        unsubscribe();
        server.last.receive({ v: 1, type: "status", status: "catchingUp" });
        assert.equal(changes, 1);
    });

    it("shows the server's status, including one sent before the list", () => {
        const { list, server } = openLiveList();
        const socket = server.last;
        socket.open();
        socket.receive({ v: 1, type: "status", status: "catchingUp" });
        assert.equal(list.status, "connecting");
        socket.receive(resultsMessage("t1", ["Work", [1]]));
        assert.equal(list.status, "catchingUp");
        socket.receive({ v: 1, type: "status", status: "resyncing" });
        assert.equal(list.status, "resyncing");
        socket.receive({ v: 1, type: "status", status: "live" });
        assert.equal(list.status, "live");
    });

    it("keeps the server's error in the snapshot and goes on", () => {
        const { list, server, errors } = openLiveList();
        const socket = server.last;
        socket.open();
        socket.receive(resultsMessage("t1", ["Work", [1]]));
        const error = { code: "conflict", message: "a write conflicted" };
        socket.receive({ v: 1, type: "error", error });
        assert.deepEqual(list.getSnapshot().error, error);
        assert.deepEqual(errors, [error]);
        assert.equal(list.status, "live");
        assert.equal(socket.closedByClient, undefined);
    });
});

describe("moveRow", () => {
    function liveList() {
        const test = openLiveList();
        test.server.last.open();
        test.server.last.receive(resultsMessage("t1", ["Work", [1, 2, 3]], ["Done", []]));
        return test;
    }

    it("resolves on the server's acknowledgement, after the batches that show the move", async () => {
        const { list, server } = liveList();
        const socket = server.last;
        const moved = list.moveRow(3, { before: 1 });
        assert.deepEqual(socket.sent.at(-1), { v: 1, type: "move", id: 1, key: 3, before: 1 });
        let acknowledged = false;
        void moved.then(() => (acknowledged = true));

        const move = changeset({
            countsBefore: [3, 0],
            countsAfter: [3, 0],
            rowsMoved: [{ from: [0, 2], to: [0, 0] }],
        });
        socket.receive(batchMessage("t2", move));
        await settle();
        assert.equal(acknowledged, false, "a batch is not the acknowledgement");
        socket.receive({ v: 1, type: "moved", id: 1 });
        await moved;
        assert.deepEqual(shape(list.getSnapshot().sections), [["Work", [3, 1, 2]], ["Done", []]]);
    });

    it("sends a move to the end of a section, with a new id for each move", () => {
        const { list, server } = liveList();
        void list.moveRow(1, { section: "Done" });
        void list.moveRow("two", { before: 3 });
        assert.deepEqual(server.last.sent.slice(-2), [
            { v: 1, type: "move", id: 1, key: 1, section: "Done" },
            { v: 1, type: "move", id: 2, key: "two", before: 3 },
        ]);
    });

    it("rejects with the server's error when the move was not made", async () => {
        const { list, server } = liveList();
        const moved = list.moveRow(9, { before: 1 });
        server.last.receive({ v: 1, type: "moved", id: 2 }); // another client id: ignored
        server.last.receive({ v: 1, type: "moved", id: 1, error: { code: "invalid", message: "no row 9" } });
        await assert.rejects(moved, { name: "MoveError", code: "invalid", message: "no row 9" });
    });

    it("rejects a move while disconnected, and one waiting when the connection closes", async () => {
        const { list, server } = liveList();
        const waiting = list.moveRow(1, { section: "Done" });
        server.last.serverClose(1001);
        await assert.rejects(waiting, moveError("disconnected"));
        await assert.rejects(list.moveRow(1, { section: "Done" }), moveError("disconnected"));
    });

    it("rejects a move after close, and one waiting when the list closes", async () => {
        const { list } = liveList();
        const waiting = list.moveRow(1, { section: "Done" });
        list.close();
        await assert.rejects(waiting, moveError("closed"));
        await assert.rejects(list.moveRow(1, { section: "Done" }), moveError("closed"));
    });
});
