import FetchKit
import FetchKitSQLite
import FetchKitSession
import Foundation

/// The web-client benchmarks' data (`resume`, `slow-client`): one project's tickets on a board, in sections by
/// status and by priority within each, served by the session core to a client that sees six fields of each. Another
/// project's as many tickets sit beside them in the table, out of the session's scope.
enum TicketBoard {
    static let ticket = Entity(
        "Ticket", table: "ticket", primaryKey: .integer("id"),
        attributes: [
            Attribute("project", .integer, indexed: true), Attribute("status", .text), Attribute("priority", .integer),
            Attribute("title", .text), Attribute("assignee", .text), Attribute("updated", .date)
        ])
    static let statuses = ["todo", "doing", "review", "done"]
    static let assignees = ["anna", "bo", "chen", "dana", "eli", "fatima", "gus", "hana"]
    /// The project the session serves.
    static let project: Int64 = 1
    /// The signed-in user's part of the table, AND-ed with the route's request.
    static let scope: FetchPredicate = .key("project") == project
    static let request = FetchRequest<Row>(
        entity: "Ticket", sortDescriptors: [.ascending("status"), .descending("priority")],
        sectionNameKeyPath: "status")

    /// What the server sends of a ticket (its project stays on the server).
    struct View: Encodable, Sendable {
        var id: Int64
        var title: String
        var status: String
        var assignee: String
        var priority: Int64
        var updated: Date
    }

    /// A ticket as the client decodes it: its date stays the ISO 8601 text it came as, as a browser keeps it.
    struct Ticket: Decodable, Sendable, Equatable {
        var id: Int64
        var title: String
        var status: String
        var assignee: String
        var priority: Int64
        var updated: String
    }

    /// A section of the board as the client holds it.
    struct Section: Equatable {
        var name: String
        var tickets: [Ticket]
    }

    /// A new store in a temporary folder (removed by `close`), with `rows` tickets in the session's project and
    /// `rows` in another.
    static func open(rows: Int) async throws -> (store: SQLiteStore, close: @Sendable () async -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-tickets-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try await SQLiteStore.open(
            path: directory.appendingPathComponent("tickets.sqlite").path, schema: try Schema([ticket]))
        var random = BenchRandom(seed: 7)
        let seeded = (0..<(2 * rows)).map { index in
            TicketWriter.newTicket(
                id: Int64(index + 1), project: index < rows ? project : project + 1, using: &random)
        }
        try await store.write { tx in try tx.insert(contentsOf: seeded, into: "Ticket") }
        return (
            store,
            {
                await store.close()
                try? FileManager.default.removeItem(at: directory)
            }
        )
    }

    /// The board's sessions, keeping what they send in `resume`.
    static func session(_ store: SQLiteStore, resume: ResumeStore<Row>?) -> LiveResultsSession<Row, View> {
        LiveResultsSession(store: store, request: request, resume: resume, projection: view)
    }

    /// What the server sends of `row`.
    @Sendable static func view(_ row: Row) -> View {
        View(
            id: row["id", as: Int64.self] ?? 0, title: row["title", as: String.self] ?? "",
            status: row["status", as: String.self] ?? "", assignee: row["assignee", as: String.self] ?? "",
            priority: row["priority", as: Int64.self] ?? 0, updated: row["updated", as: Date.self] ?? .distantPast)
    }

    /// What the client's list must hold now: a fresh fetch of the session's request, as the client decodes it.
    static func current(_ store: SQLiteStore) async throws -> [Section] {
        var narrowed = request
        narrowed.predicate = scope
        var sections: [Section] = []
        for row in try await store.fetch(narrowed) {
            let view = view(row)
            let updated = try JSONDecoder().decode(String.self, from: JSONEncoder().encode(row["updated"] ?? .null))
            let ticket = Ticket(
                id: view.id, title: view.title, status: view.status, assignee: view.assignee,
                priority: view.priority, updated: updated)
            if sections.last?.name == ticket.status {
                sections[sections.count - 1].tickets.append(ticket)
            } else {
                sections.append(Section(name: ticket.status, tickets: [ticket]))
            }
        }
        return sections
    }

    /// What `list` holds, section by section.
    static func sections(of list: WireList<Ticket>) -> [Section] {
        list.sections.map { Section(name: $0.name, tickets: $0.objects) }
    }
}
