/** How long a live list waits between reconnection attempts, in milliseconds. */
export interface BackoffOptions {
    /** The longest wait before the first attempt (default 500). */
    readonly baseDelay?: number | undefined;
    /** The longest wait, however many attempts failed (default 30,000). */
    readonly maxDelay?: number | undefined;
}

/**
 * Exponential backoff with jitter: before attempt *n* (from 0), a wait between half and all of
 * `min(maxDelay, baseDelay × 2ⁿ)`, the point in that range chosen by `random` (in [0, 1)). The jitter keeps the
 * clients of a server that restarts from all coming back at once; the lower half keeps the waits growing.
 */
export class Backoff {
    readonly #baseDelay: number;
    readonly #maxDelay: number;
    readonly #random: () => number;
    #attempt = 0;

    /** @throws {RangeError} unless `0 < baseDelay <= maxDelay`. */
    constructor(options: BackoffOptions = {}, random: () => number = Math.random) {
        this.#baseDelay = options.baseDelay ?? 500;
        this.#maxDelay = options.maxDelay ?? 30_000;
        this.#random = random;
        if (!(this.#baseDelay > 0 && this.#baseDelay <= this.#maxDelay)) {
            throw new RangeError(
                `backoff needs 0 < baseDelay <= maxDelay, not ${this.#baseDelay} and ${this.#maxDelay}`,
            );
        }
    }

    /** The wait before the next attempt; each call counts one attempt. */
    next(): number {
        const ceiling = Math.min(this.#maxDelay, this.#baseDelay * 2 ** this.#attempt);
        this.#attempt += 1;
        return ceiling / 2 + (ceiling / 2) * this.#random();
    }

    /** Starts again from `baseDelay`: called when a connection worked. */
    reset(): void {
        this.#attempt = 0;
    }
}
