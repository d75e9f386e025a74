import FetchKit
import Foundation

/// What a page asks the server to do, one JSON object per WebSocket message:
///
/// ```json
/// {"type": "add", "title": "Write tests", "lane": "Backlog"}
/// {"type": "toggle", "key": 3}
/// {"type": "delete", "key": 3}
/// {"type": "move", "key": 3, "before": 7}          // just above card 7
/// {"type": "move", "key": 3, "section": "Done"}    // at the end of the Done lane
/// ```
enum ClientCommand: Sendable, Equatable {
    case add(title: String, lane: String)
    case toggle(key: Int64)
    case delete(key: Int64)
    case move(key: Int64, MoveDestination)

    /// A command the page sent that the server cannot run, and why.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    private struct Message: Decodable {
        var type: String
        var key: Int64?
        var before: Int64?
        var section: String?
        var title: String?
        var lane: String?
    }

    /// Decodes and checks one message from the page.
    init(json text: String) throws {
        let message: Message
        do {
            message = try JSONDecoder().decode(Message.self, from: Data(text.utf8))
        } catch {
            throw Invalid(description: "not a command: \(text.prefix(80))")
        }
        func key() throws -> Int64 {
            guard let key = message.key else { throw Invalid(description: "'\(message.type)' needs a 'key'") }
            return key
        }
        switch message.type {
        case "add":
            let title = (message.title ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...200).contains(title.count) else {
                throw Invalid(description: "a card needs a title of 1 to 200 characters")
            }
            guard let lane = message.lane, Board.lanes.contains(lane) else {
                throw Invalid(description: "a card goes to one of the lanes \(Board.lanes)")
            }
            self = .add(title: title, lane: lane)
        case "toggle":
            self = .toggle(key: try key())
        case "delete":
            self = .delete(key: try key())
        case "move":
            switch (message.before, message.section) {
            case (let before?, nil): self = .move(key: try key(), .before(.integer(before)))
            case (nil, let section?): self = .move(key: try key(), .endOfSection(section))
            default:
                throw Invalid(description: "a move names either the card it goes 'before' or the 'section' it ends")
            }
        default:
            throw Invalid(description: "unknown command '\(message.type)'")
        }
    }

    /// Writes the command's change in one transaction (moves run through the results controller instead).
    func write(to store: any PersistentStore) async throws {
        switch self {
        case .add(let title, let lane):
            try await store.write { tx in
                let last = try tx.fetch(
                    FetchRequest<Card>(
                        predicate: #Predicate { $0.lane == lane },
                        sortBy: [SortDescriptor(\.position, order: .reverse)],
                        fetchLimit: 1))
                try tx.insert(Card(title: title, lane: lane, position: (last.first?.position ?? -1) + 1))
            }
        case .toggle(let key):
            try await store.write { tx in
                var card = try Self.card(key, in: tx)
                card.done.toggle()
                try tx.update(card)
            }
        case .delete(let key):
            _ = try await store.write { tx in try tx.delete(try Self.card(key, in: tx)) }
        case .move:
            throw Invalid(description: "a move runs through the results controller")
        }
    }

    /// The card whose key is `key`.
    private static func card(_ key: Int64, in tx: any WriteTransaction) throws -> Card {
        let id = Optional(key)
        guard let card = try tx.fetch(FetchRequest<Card>(predicate: #Predicate { $0.id == id })).first else {
            throw Invalid(description: "no card \(key)")
        }
        return card
    }
}
