// Compiled, never run: the host's classes fit this client's structural types (a compile error otherwise).
import type { ExternalStoreHooks, WebSocketConstructor } from "../src/index.js";

// The browser's WebSocket class (the DOM library's declaration) is a WebSocketConstructor.
const host = globalThis as { WebSocket?: typeof WebSocket };
export const browserWebSocket: WebSocketConstructor | undefined = host.WebSocket;

// React's declaration of the hook, as its own type definitions give it, fits ExternalStoreHooks.
declare function useSyncExternalStore<Snapshot>(
    subscribe: (onStoreChange: () => void) => () => void,
    getSnapshot: () => Snapshot,
    getServerSnapshot?: () => Snapshot,
): Snapshot;
export const react: ExternalStoreHooks = { useSyncExternalStore };
