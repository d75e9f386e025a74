import FetchKit
import FetchKitInMemory
import FetchKitSession
import Foundation
import Testing

/// Resume across a graceful restart: the first process saves its resume store, the next restores it from the
/// archive, and a client that reconnects with its token receives one batch — never another list's rows, and a
/// reset (never a crash) when the archive cannot be read.
@Suite("Live results session: resume after a restart")
struct ResumeRestartTests {
    /// A client of owner 1 served by a first process, which saved its states to `archive` once the client left:
    /// the client's list and its last token.
    private func firstProcess(
        _ store: InMemoryStore, archive: URL
    ) async throws -> (held: WireList<CardView>, token: String) {
        let resume = ResumeStore<Row>(archive: archive)
        let (held, token) = try await Board.visit(Board.session(store, resume: resume), store)
        try resume.save()
        return (held, token)
    }

    /// Moves, renames, inserts and deletes across lanes, while no process serves.
    private func writeWhileAway(_ store: InMemoryStore) async throws {
        try await Board.write(store, rounds: 5..<25)
        try await store.write { tx in
            try tx.update("Card", key: 1, set: ["lane": .text("Done"), "position": .double(0.5)])
            try tx.update("Card", key: 5, set: ["position": .double(-1)])
            try tx.delete("Card", key: 7)
        }
    }

    @Test func aClientResumesFromWhatItHoldsOnTheNextProcess() async throws {
        try await withArchive { archive in
            let store = try await Board.store()
            let (held, token) = try await firstProcess(store, archive: archive)
            try await writeWhileAway(store)
            let next = ResumeStore<Row>(archive: archive)
            #expect(next.sessionCount == 1)
            try await Board.write(store, rounds: 25..<27)
            let (socket, task) = try await Board.connect(
                Board.session(store, resume: next), owner: 1, open: Board.open(resume: token))
            let sent = socket.listSent
            #expect(sent.first?.type == "resumed" && !sent.contains { ["reset", "results"].contains($0.type) })
            let changeset = try #require(sent.first?.changeset)
            try Board.expectApplies(changeset, to: held, giving: try await Board.freshCards(store, owner: 1))
            // From the list the client held: card 7 deleted, 1 moved across lanes, two added, 3 renamed, 5 moved up.
            let batch = Changeset(changeset)
            #expect(batch.rowDeletes.count == 1 && batch.rowMoves.count == 1)
            #expect(batch.rowInserts.count == 2 && batch.rowUpdates.count == 2, "\(batch)")
            socket.disconnect()
            await task.value
        }
    }

    @Test func aRestoredTokenOfAnotherTenantIsResetNotResumed() async throws {
        try await withArchive { archive in
            let store = try await Board.store()
            let (_, token) = try await firstProcess(store, archive: archive)
            let session = Board.session(store, resume: ResumeStore<Row>(archive: archive))
            let other = try await Board.visit(session, owner: 2, open: Board.open(resume: token))
            #expect(other.listSent.map(\.type) == ["reset", "results"])
            #expect(other.listSent.first?.reason == "unknown")
            #expect(Board.ids(try Board.list(from: other.sent)) == (try await Board.fresh(store, owner: 2)))
            // Another filter of the same tenant is another list too.
            let filtered = try await Board.visit(
                session, owner: 1, open: Board.open(filter: "lane == 'Doing'", resume: token))
            #expect(filtered.listSent.map(\.type) == ["reset", "results"])
            // Its own tenant still resumes.
            let own = try await Board.visit(session, owner: 1, open: Board.open(resume: token))
            #expect(own.listSent.first?.type == "resumed")
        }
    }

    /// How an archive is damaged.
    enum Damage: String, CaseIterable, Sendable {
        case truncated, flippedByte, otherVersion, notAnArchive, empty

        func apply(to bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .truncated: Array(bytes.dropLast(7))
            case .flippedByte:
                bytes.enumerated().map { $0.offset == bytes.count - 20 ? $0.element ^ 0x10 : $0.element }
            case .otherVersion: bytes.enumerated().map { $0.offset == 8 ? $0.element &+ 1 : $0.element }
            case .notAnArchive: Array("{\"sessions\": []}".utf8)
            case .empty: []
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedArchiveIsIgnoredAndTheClientResets(damage: Damage) async throws {
        try await withArchive { archive in
            let store = try await Board.store()
            let (_, token) = try await firstProcess(store, archive: archive)
            try Data(damage.apply(to: Array(try Data(contentsOf: archive)))).write(to: archive)
            let resume = ResumeStore<Row>(archive: archive)
            #expect(resume.sessionCount == 0 && resume.rowCount == 0)
            let socket = try await Board.visit(
                Board.session(store, resume: resume), owner: 1, open: Board.open(resume: token))
            #expect(socket.listSent.map(\.type) == ["reset", "results"])
            #expect(Board.ids(try Board.list(from: socket.sent)) == (try await Board.fresh(store, owner: 1)))
        }
    }

    @Test func theArchiveIsReplacedWholeAndReadableByItsOwnerAlone() async throws {
        try await withArchive { archive in
            let store = try await Board.store()
            _ = try await firstProcess(store, archive: archive)
            let resume = ResumeStore<Row>(archive: archive)
            try resume.save()
            let attributes = try FileManager.default.attributesOfItem(atPath: archive.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let directory = archive.deletingLastPathComponent()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [archive.lastPathComponent])
            #expect(ResumeStore<Row>(archive: archive).sessionCount == 1)
            // A store without an archive saves nothing; one whose archive is missing starts empty.
            try ResumeStore<Row>().save()
            #expect(ResumeStore<Row>(archive: directory.appending(path: "missing")).sessionCount == 0)
        }
    }

    @Test func restoredStatesKeepToTheNewBounds() async throws {
        try await withArchive { archive in
            let store = try await Board.store()
            _ = try await firstProcess(store, archive: archive)
            let all = ResumeStore<Row>(archive: archive)
            let last = ResumeStore<Row>(statesPerSession: 1, archive: archive)
            #expect(all.sessionCount == 1 && last.sessionCount == 1 && last.rowCount < all.rowCount)
            #expect(ResumeStore<Row>(maximumRows: all.rowCount - 1, archive: archive).sessionCount == 0)
            #expect(ResumeStore<Row>(keepFor: .zero, archive: archive).sessionCount == 0)
        }
    }

    /// Runs `body` with the URL of an archive in a directory of its own, removed afterwards.
    private func withArchive(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "fetchkit-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory.appending(path: "todos.resume"))
    }
}
