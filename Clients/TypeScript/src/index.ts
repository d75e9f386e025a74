// FetchKit's TypeScript client for live results sessions: the protocol's types and parser, a list that
// applies wire changesets, a live list over a WebSocket, and React bindings.
export { applyChangeset, ChangesetMismatch } from "./applyChangeset.js";
export { Backoff, type BackoffOptions } from "./backoff.js";
export {
    moveMessage,
    openMessage,
    type ClientMessage,
    type MoveDestination,
    type MoveMessage,
    type OpenMessage,
    type RowKey,
    type SortKey,
} from "./clientMessage.js";
export type { JsonObject, JsonValue } from "./json.js";
export type { LiveResults, LiveSnapshot, LiveStatus, SubscribeOptions } from "./liveResults.js";
export { parseChangeset, type ObjectDecoder } from "./parseChangeset.js";
export { parseServerMessage } from "./parseServerMessage.js";
export { MoveError } from "./pendingMoves.js";
export { ProtocolViolation, type ViolationKind } from "./protocolViolation.js";
export { createLiveResultsHook, useLiveResults, type ExternalStoreHooks } from "./react.js";
export type { Section } from "./section.js";
export {
    PROTOCOL_VERSION,
    type BatchMessage,
    type ErrorMessage,
    type MovedMessage,
    type RefusedMessage,
    type ResetMessage,
    type ResultsMessage,
    type ResumedMessage,
    type ServerListStatus,
    type ServerMessage,
    type SessionError,
    type StatusMessage,
} from "./serverMessage.js";
export { subscribe } from "./subscribe.js";
export type { Timers } from "./timers.js";
export type { CloseEventLike, MessageEventLike, WebSocketConstructor, WebSocketLike } from "./webSocketLike.js";
export {
    WIRE_CHANGESET_VERSION,
    type RowInsert,
    type RowMove,
    type RowPath,
    type RowUpdate,
    type SectionInsert,
    type SectionMove,
    type WireChangeset,
} from "./wireChangeset.js";
