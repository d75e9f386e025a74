import FetchKit

extension ListSession {
    /// Writes every message to the page, in event order: the first element of the update sequence as the
    /// results, each later one as a batch (each is from what the page holds), and the other messages as
    /// they are.
    static func forward(_ events: AsyncStream<Event>, send: @Sendable (String) async throws -> Void) async throws {
        var hasSentResults = false
        for await event in events {
            switch event {
            case .update(let update):
                guard update.changeset?.isEmpty == false || !hasSentResults else { continue }
                try await send(ServerMessage.changeset(WireChangeset(update), isResults: !hasSentResults).json())
                hasSentResults = true
            case .message(let message):
                try await send(message.json())
            }
        }
    }
}
