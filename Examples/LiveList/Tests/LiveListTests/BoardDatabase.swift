import FetchKit
import Foundation
import LiveListModel
import ServiceLifecycle
import Testing

/// The database a test's server runs on — a throwaway SQLite file, or tables of their own in `DATABASE_URL`'s
/// PostgreSQL — opened by the test too: to write as another app instance would, and to fetch what a page must show.
struct BoardDatabase: Sendable {
    enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
        case sqlite, postgres
        var description: String { rawValue }
    }

    /// A board on which framework and which backend.
    struct Case: Sendable, CustomTestStringConvertible {
        let framework: BoardServer.Framework
        let backend: Backend
        var testDescription: String { "\(framework) on \(backend)" }

        static var all: [Case] {
            BoardServer.Framework.built.flatMap { framework in
                Backend.allCases.map { Case(framework: framework, backend: $0) }
            }
        }
    }

    let url: String
    let tablePrefix: String
    let store: any PersistentStore & Service
    private let file: String?

    /// A new, seeded board on `backend`.
    static func make(_ backend: Backend) async throws -> BoardDatabase {
        switch backend {
        case .sqlite:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("live-list-\(UUID()).sqlite").path
            return try await BoardDatabase(url: "sqlite:" + file, tablePrefix: "", file: file)
        case .postgres:
            guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
                throw BoardServer.Failure(
                    description:
                        "DATABASE_URL is not set: run the tests with Integration/test.sh, which starts PostgreSQL")
            }
            return try await BoardDatabase(
                url: url, tablePrefix: "live_list_\(UInt32.random(in: 0...UInt32.max))_", file: nil)
        }
    }

    private init(url: String, tablePrefix: String, file: String?) async throws {
        self.url = url
        self.tablePrefix = tablePrefix
        self.file = file
        store = try await Board.open(url: url, tablePrefix: tablePrefix)
    }

    /// Closes the test's store and removes the board's file or tables.
    func remove() async {
        if file == nil {
            _ = try? await store.write { [tablePrefix] tx in
                for table in ["card", "member"] { try tx.execute("DROP TABLE \"\(tablePrefix)\(table)\" CASCADE", []) }
            }
        }
        await store.close()
        if let file {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }
    }

    /// The sign-in cookie of member `name`.
    func cookie(of name: String) async throws -> String {
        let member = try await store.fetch(FetchRequest<Member>(predicate: .key("name") == name)).first
        guard let member else { throw BoardServer.Failure(description: "no member \(name)") }
        return "member=\(member.token)"
    }

    /// What a page of `team` must show (narrowed by `filter`, a format string): a fresh fetch of the page's request.
    func expected(team: String, filter: String? = nil) async throws -> [LaneView] {
        var predicate: FetchPredicate = .key("team") == team
        if let filter { predicate = predicate && (try FetchPredicate(format: filter)) }
        let cards = try await store.fetch(
            FetchRequest<Card>(
                predicate: predicate, sortDescriptors: [.ascending("lane"), .ascending("position")],
                sectionNameKeyPath: "lane"))
        var lanes: [LaneView] = []
        for card in cards {
            let seen = LaneView.Seen(id: card.id ?? 0, title: card.title)
            if lanes.last?.name == card.lane {
                lanes[lanes.count - 1].cards.append(seen)
            } else {
                lanes.append(LaneView(name: card.lane, cards: [seen]))
            }
        }
        return lanes
    }
}

/// A lane as a page shows it (`liveBoard.view()`), or as a fresh fetch says it must.
struct LaneView: Codable, Equatable, Sendable, CustomStringConvertible {
    struct Seen: Codable, Equatable, Sendable {
        let id: Int64
        let title: String
    }
    let name: String
    var cards: [Seen]
    var description: String { "\(name): \(cards.map { "\($0.id) \($0.title)" })" }
}
