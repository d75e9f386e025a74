import type { Timers } from "../../src/index.js";

/** Timers that run only when a test says so, and show what was scheduled. */
export class FakeTimers implements Timers {
    #nextHandle = 1;
    #scheduled: { handle: number; milliseconds: number; callback: () => void }[] = [];

    setTimeout(callback: () => void, milliseconds: number): unknown {
        const handle = this.#nextHandle;
        this.#nextHandle += 1;
        this.#scheduled.push({ handle, milliseconds, callback });
        return handle;
    }

    clearTimeout(handle: unknown): void {
        this.#scheduled = this.#scheduled.filter((timer) => timer.handle !== handle);
    }

    /** The delays of the timers still to run, in the order they were set. */
    get pending(): number[] {
        return this.#scheduled.map((timer) => timer.milliseconds);
    }

    /** Runs the timer set first, and returns its delay. */
    runNext(): number {
        const timer = this.#scheduled.shift();
        if (timer === undefined) throw new Error("no timer is pending");
        timer.callback();
        return timer.milliseconds;
    }
}
