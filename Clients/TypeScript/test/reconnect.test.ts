// A live list across connections: reconnection with backoff and resume, reset, refusal, resync and close.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { changeset, shape, todo } from "./support/changesets.js";
import { batchMessage, moveError, openLiveList, resultsMessage, resumedMessage } from "./support/liveList.js";

/** A live list that received `results` (token t1) and one batch (token t2): Work [1, 2]. */
function liveList() {
    const test = openLiveList();
    test.server.last.open();
    test.server.last.receive(resultsMessage("t1", ["Work", [1]]));
    const insert = changeset({ countsBefore: [1], countsAfter: [2], rowsInserted: [{ at: [0, 1], object: todo(2) }] });
    test.server.last.receive(batchMessage("t2", insert));
    return test;
}

describe("reconnection", () => {
    it("after the server goes away, resumes from the last token, applying the changeset to the list it kept", () => {
        const { list, server, timers } = liveList();
        server.last.serverClose(1001);
        assert.equal(list.status, "resyncing");
        assert.deepEqual(shape(list.getSnapshot().sections), [["Work", [1, 2]]], "the list stays while away");
        assert.deepEqual(timers.pending, [50]);

        timers.runNext();
        assert.equal(server.sockets.length, 2);
        server.last.open();
        assert.deepEqual(server.last.sent, [{ v: 1, type: "open", resume: "t2" }]);
        const deletion = changeset({ countsBefore: [2], countsAfter: [1], rowsDeleted: [[0, 0]] });
        server.last.receive(resumedMessage("t3", deletion));
        assert.equal(list.status, "live");
        assert.deepEqual(shape(list.getSnapshot().sections), [["Work", [2]]]);

        // The resumed list is the next one's starting point.
        server.last.serverClose(1000);
        assert.deepEqual(timers.pending, [50], "a list that arrived starts the backoff again");
        timers.runNext();
        server.last.open();
        assert.deepEqual(server.last.sent, [{ v: 1, type: "open", resume: "t3" }]);
    });

    it("on reset drops the list and takes the results that follow", () => {
        const { list, server, timers } = liveList();
        server.last.serverClose(1011);
        timers.runNext();
        server.last.open();
        server.last.receive({ v: 1, type: "reset", reason: "expired" });
        assert.equal(list.status, "resyncing");
        assert.deepEqual(list.getSnapshot().sections, []);
        server.last.receive(resultsMessage("t9", ["Work", [7]], ["Done", [8]]));
        assert.equal(list.status, "live");
        assert.deepEqual(shape(list.getSnapshot().sections), [["Work", [7]], ["Done", [8]]]);
    });

    it("waits longer after each failed attempt, up to the maximum, and says connecting until a list arrives", () => {
        const { list, server, timers } = openLiveList();
        const waits: number[] = [];
        for (let attempt = 0; attempt < 6; attempt += 1) {
            server.last.serverClose(1006);
            assert.equal(list.status, "connecting");
            waits.push(timers.runNext());
        }
        assert.deepEqual(waits, [50, 100, 200, 400, 500, 500]);
        assert.equal(server.sockets.length, 7);
    });

    it("spreads the waits by the jitter", () => {
        const { server, timers } = openLiveList({ random: () => 0.5 });
        server.last.serverClose(1006);
        assert.deepEqual(timers.pending, [75]);
    });

    it("stops for good when the server refuses the list", async () => {
        const { list, server, timers, errors } = openLiveList({ filter: "ownerID == 3" });
        server.last.open();
        const error = { code: "forbidden", message: "'ownerID' cannot be filtered" };
        server.last.receive({ v: 1, type: "refused", error });
        server.last.receive("anything after the refusal is not heard");
        server.last.serverClose(1008);
        assert.equal(list.status, "refused");
        assert.deepEqual(list.getSnapshot().error, error);
        assert.deepEqual(errors, [error]);
        assert.deepEqual(timers.pending, []);
        assert.equal(server.sockets.length, 1);
        await assert.rejects(list.moveRow(1, { section: "Done" }), moveError("refused"));
    });

    it("takes a close with 1008 alone as a refusal", () => {
        const { list, server, timers } = liveList();
        server.last.serverClose(1008);
        assert.equal(list.status, "refused");
        assert.deepEqual(timers.pending, []);
    });

    it("on a changeset that does not apply, reports it and reconnects without a token for the whole list", () => {
        const { list, server, timers, errors } = liveList();
        const first = server.last;
        first.receive(batchMessage("t3", changeset({ countsBefore: [5], countsAfter: [5] })));
        assert.equal(errors[0]?.code, "mismatch");
        assert.match(errors[0]?.message ?? "", /the list has \[2\] rows per section, the changeset expects \[5\]/);
        assert.equal(first.closedByClient, 1000);
        assert.equal(list.status, "resyncing");
        assert.equal(list.getSnapshot().error?.code, "mismatch");

        first.receive(batchMessage("t4", changeset({ countsBefore: [2], countsAfter: [2] })));
        assert.equal(errors.length, 1, "a socket the list let go of is not heard");

        timers.runNext();
        server.last.open();
        assert.deepEqual(server.last.sent, [{ v: 1, type: "open" }]);
        server.last.receive(resultsMessage("t5", ["Work", [1, 2, 3]]));
        assert.equal(list.status, "live");
        assert.equal(list.getSnapshot().error, undefined);
        assert.deepEqual(shape(list.getSnapshot().sections), [["Work", [1, 2, 3]]]);
    });

    it("treats a message it cannot read, or a batch before the list, as being out of step", () => {
        const { list, server, timers, errors } = liveList();
        server.last.receive("{\"v\": 1, \"type\": \"batch\"");
        assert.equal(errors[0]?.code, "protocol");
        assert.match(errors[0]?.message ?? "", /not JSON/);
        assert.equal(list.status, "resyncing");

        timers.runNext();
        server.last.open();
        server.last.receive(batchMessage("t6", changeset({ countsBefore: [2], countsAfter: [2] })));
        assert.deepEqual(errors[1], { code: "protocol", message: "a batch came before the list" });
    });

    it("closes for good: no reconnection, and a pending reconnection is cancelled", () => {
        const { list, server, timers } = liveList();
        list.close();
        assert.equal(list.status, "closed");
        assert.equal(server.last.closedByClient, 1000);
        assert.deepEqual(timers.pending, []);

        const waiting = openLiveList();
        waiting.server.last.serverClose(1001);
        assert.deepEqual(waiting.timers.pending, [50]);
        waiting.list.close();
        assert.deepEqual(waiting.timers.pending, []);
        assert.equal(waiting.list.status, "closed");
    });
});
