import FetchKit
import FetchKitInMemory
import FetchKitSession
import Foundation
import Synchronization
import Testing

/// A card as the client sees it (the session's projection of a row).
struct CardView: Codable, Sendable, Equatable {
    var id: Int64
    var title: String
    var lane: String
}

/// A message as the client decodes it.
struct Envelope: Decodable, Sendable {
    struct ErrorBody: Decodable, Sendable {
        var code: String
        var message: String
    }

    var v: Int
    var type: String
    var token: String?
    var changeset: WireChangeset<CardView>?
    var reason: String?
    var id: Int?
    var error: ErrorBody?
    var status: String?
}

/// A socket the test holds: it records what the session sends, can hold sends (a client that does not read),
/// and records the close.
final class TestSocket: SessionTransport {
    private struct State {
        var sent: [String] = []
        var closed: (code: SessionCloseCode, reason: String)?
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    let inbound: AsyncStream<String>
    private let client: AsyncStream<String>.Continuation

    init() {
        (inbound, client) = AsyncStream.makeStream(of: String.self)
    }

    /// The client sends `text`.
    func receive(_ text: String) { client.yield(text) }

    /// The client disconnects.
    func disconnect() { client.finish() }

    func send(_ text: String) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.held else { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        state.withLock { $0.sent.append(text) }
    }

    func close(_ code: SessionCloseCode, reason: String) async {
        state.withLock { $0.closed = (code, reason) }
        client.finish()
    }

    /// Sends wait until ``release()``.
    func hold() { state.withLock { $0.held = true } }

    /// Lets the held sends through.
    func release() {
        let waiting = state.withLock { state in
            state.held = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for send in waiting { send.resume() }
    }

    var sent: [Envelope] {
        state.withLock { $0.sent }.map { try! JSONDecoder().decode(Envelope.self, from: Data($0.utf8)) }
    }

    /// What was sent but `status` messages, which a loaded machine may send between any two others.
    var listSent: [Envelope] { sent.filter { $0.type != "status" } }

    var sentTexts: [String] { state.withLock { $0.sent } }

    /// How many sends wait for ``release()``.
    var heldSends: Int { state.withLock { $0.waiting.count } }

    /// Waits until at least one send waits for ``release()``, failing after `seconds`.
    func waitForAHeldSend(seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while heldSends == 0 {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for a held send", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    var closed: (code: SessionCloseCode, reason: String)? { state.withLock { $0.closed } }

    /// Waits until `condition` holds of what was sent, failing after `seconds`.
    func wait(
        for what: String, seconds: Double = 60, _ condition: ([Envelope]) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition(sent) {
            guard ContinuousClock.now < deadline else {
                Issue.record(
                    "timed out waiting for \(what); sent: \(sentTexts.map { $0.prefix(120) })",
                    sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// The board the sessions serve: cards of two owners in lanes, ordered by position.
enum Board {
    static let card = Entity(
        "Card", table: "card", primaryKey: .integer("id"),
        attributes: [
            Attribute("owner", .integer, indexed: true), Attribute("lane", .text), Attribute("title", .text),
            Attribute("position", .double)
        ])

    static func store() async throws -> InMemoryStore {
        let store = InMemoryStore(schema: try Schema([card]))
        try await store.write { tx in
            for id in Int64(1)...12 {
                _ = try tx.insert(
                    [
                        "id": .integer(id), "owner": .integer(id % 2 == 0 ? 2 : 1),
                        "lane": .text(["Backlog", "Doing", "Done"][Int(id % 3)]), "title": .text("card \(id)"),
                        "position": .double(Double(id))
                    ], into: "Card")
            }
        }
        return store
    }

    static let request = FetchRequest<Row>(
        entity: "Card", sortDescriptors: [.ascending("lane"), .ascending("position")], sectionNameKeyPath: "lane")

    static func session(
        _ store: any PersistentStore, resume: ResumeStore<Row>? = nil, policy: ClientQueryPolicy? = nil
    ) -> LiveResultsSession<Row, CardView> {
        LiveResultsSession(
            store: store, request: request,
            policy: policy ?? ClientQueryPolicy(filterable: ["title", "lane"], sortable: ["title"]), resume: resume
        ) { row in
            CardView(
                id: (row["id"] ?? .null).int, title: (row["title"] ?? .null).text, lane: (row["lane"] ?? .null).text)
        }
    }

    static func scope(owner: Int64) -> FetchPredicate { .key("owner") == owner }

    static func open(filter: String? = nil, sort: [(String, Bool)] = [], resume: String? = nil) -> String {
        var object: [String: Any] = ["v": 1, "type": "open"]
        if let filter { object["filter"] = filter }
        if !sort.isEmpty { object["sort"] = sort.map { ["key": $0.0, "ascending": $0.1] } }
        if let resume { object["resume"] = resume }
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// What the client's list holds after applying every list message in `sent` (from the last `results`).
    static func list(from sent: [Envelope], startingWith held: WireList<CardView> = WireList()) throws -> WireList<
        CardView
    > {
        var list = held
        for message in sent {
            switch message.type {
            case "results":
                list = WireList()
                try list.apply(try #require(message.changeset))
            case "batch", "resumed":
                try list.apply(try #require(message.changeset))
            default: break
            }
        }
        return list
    }

    /// The cards `owner` sees now, by lane, as a fresh fetch of the narrowed request finds them.
    static func fresh(
        _ store: any PersistentStore, owner: Int64, filter: FetchPredicate = .true,
        sort: [FetchSortDescriptor] = [.ascending("lane"), .ascending("position")]
    ) async throws -> [[Int64]] {
        var request = Self.request
        request.predicate = .and([scope(owner: owner), filter])
        request.sortDescriptors = sort
        let rows = try await store.fetch(request)
        var lanes: [(String, [Int64])] = []
        for row in rows {
            let lane = (row["lane"] ?? .null).text
            if lanes.last?.0 == lane {
                lanes[lanes.count - 1].1.append((row["id"] ?? .null).int)
            } else {
                lanes.append((lane, [(row["id"] ?? .null).int]))
            }
        }
        return lanes.map(\.1)
    }

    static func ids(_ list: WireList<CardView>) -> [[Int64]] { list.sections.map { $0.objects.map(\.id) } }
}

extension Value {
    fileprivate var int: Int64 { if case .integer(let value) = self { value } else { 0 } }
    fileprivate var text: String { if case .text(let value) = self { value } else { "" } }
}
