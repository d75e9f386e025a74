import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createLiveResultsHook, type ExternalStoreHooks } from "../src/index.js";
import { shape } from "./support/changesets.js";
import { openLiveList, resultsMessage } from "./support/liveList.js";

/** Just enough of React: the hook reads the snapshot, and a change "renders" again. */
function fakeReact() {
    const renders: unknown[] = [];
    const react: ExternalStoreHooks = {
        useSyncExternalStore(subscribe, getSnapshot) {
            subscribe(() => renders.push(getSnapshot()));
            return getSnapshot();
        },
    };
    return { react, renders };
}

describe("React bindings", () => {
    it("give a component the list's snapshot and render again on each change", () => {
        const { react, renders } = fakeReact();
        const useLiveResults = createLiveResultsHook(react);
        const { list, server } = openLiveList();
        assert.equal(useLiveResults(list), list.getSnapshot());

        server.last.open();
        server.last.receive(resultsMessage("t1", ["Work", [1]]));
        assert.equal(renders.length, 1);
        const rendered = useLiveResults(list);
        assert.equal(rendered, renders[0]);
        assert.equal(rendered.status, "live");
        assert.deepEqual(shape(rendered.sections), [["Work", [1]]]);
    });
});
