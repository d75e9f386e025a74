/** The timer functions a live list schedules reconnections with; tests pass fake ones. */
export interface Timers {
    setTimeout(callback: () => void, milliseconds: number): unknown;
    clearTimeout(handle: unknown): void;
}

/** The host's `setTimeout` and `clearTimeout` (a browser's or Node's). */
export function hostTimers(): Timers {
    const host = globalThis as unknown as {
        setTimeout(callback: () => void, milliseconds: number): unknown;
        clearTimeout(handle: unknown): void;
    };
    return {
        setTimeout: (callback, milliseconds) => host.setTimeout(callback, milliseconds),
        clearTimeout: (handle) => host.clearTimeout(handle),
    };
}
