import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Backoff } from "../src/index.js";

describe("Backoff", () => {
    it("doubles the wait with each attempt up to the maximum", () => {
        const backoff = new Backoff({ baseDelay: 100, maxDelay: 1000 }, () => 0.999999);
        const waits = Array.from({ length: 7 }, () => Math.round(backoff.next()));
        assert.deepEqual(waits, [100, 200, 400, 800, 1000, 1000, 1000]);
    });

    it("waits between half and all of the ceiling, as the jitter says", () => {
        assert.equal(new Backoff({ baseDelay: 100, maxDelay: 1000 }, () => 0).next(), 50);
        assert.equal(new Backoff({ baseDelay: 100, maxDelay: 1000 }, () => 0.5).next(), 75);
    });

    it("starts again from the base after a reset", () => {
        const backoff = new Backoff({ baseDelay: 100, maxDelay: 1000 }, () => 0);
        backoff.next();
        backoff.next();
        backoff.reset();
        assert.equal(backoff.next(), 50);
    });

    it("waits 0.5 s at first and 30 s at most by default", () => {
        const backoff = new Backoff({}, () => 0.999999);
        assert.equal(Math.round(backoff.next()), 500);
        for (let attempt = 0; attempt < 20; attempt += 1) backoff.next();
        assert.equal(Math.round(backoff.next()), 30_000);
    });

    it("refuses a base that is not positive or above the maximum", () => {
        assert.throws(() => new Backoff({ baseDelay: 0 }), RangeError);
        assert.throws(() => new Backoff({ baseDelay: 2000, maxDelay: 1000 }), /0 < baseDelay <= maxDelay/);
    });
});
