import FetchKit
import Foundation

/// What the server sends a page, one JSON object per WebSocket message:
///
/// ```json
/// {"type": "results", "changeset": {…}}      // first: every row, inserted into an empty list
/// {"type": "batch", "changeset": {…}}        // then one per change, from what the page holds
/// {"type": "moved"}                          // the page's move ran (or "error" says why not)
/// {"type": "error", "error": "…"}            // a command failed
/// ```
///
/// Changesets are FetchKit's wire format (`WireChangeset`, version 1), applied in the page by
/// `fetchkit-changeset.js`.
struct ServerMessage: Encodable, Sendable {
    var type: String
    var changeset: WireChangeset<Card>?
    var error: String?

    static func changeset(_ changeset: WireChangeset<Card>, isResults: Bool) -> ServerMessage {
        ServerMessage(type: isResults ? "results" : "batch", changeset: changeset)
    }

    static func moved(error: String?) -> ServerMessage { ServerMessage(type: "moved", error: error) }

    static func error(_ message: String) -> ServerMessage { ServerMessage(type: "error", error: message) }

    /// The message as JSON text.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
