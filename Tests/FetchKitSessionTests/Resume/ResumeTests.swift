import FetchKit
import FetchKitInMemory
import FetchKitSession
import Foundation
import Testing

/// A client that reconnects with its last token receives one batch from the list it holds to now; a token
/// that cannot be used gets an explicit reset, never another list's rows.
@Suite("Live results session: resume")
struct ResumeTests {
    @Test func aClientThatReconnectsReceivesOneBatchFromWhatItHolds() async throws {
        let store = try await Board.store()
        let resume = ResumeStore<Row>()
        let session = Board.session(store, resume: resume)
        let (held, token) = try await Board.visit(session, store)

        try await Board.write(store, rounds: 5..<50)
        let (second, secondTask) = try await Board.connect(session, owner: 1, open: Board.open(resume: token))
        let sent = second.listSent
        #expect(sent.first?.type == "resumed")
        let resumed = try Board.list(from: sent, startingWith: held)
        #expect(Board.ids(resumed) == (try await Board.fresh(store, owner: 1)))
        let bytes = second.sentTexts.first?.utf8.count ?? 0
        let full = try await Board.fresh(store, owner: 1).flatMap { $0 }.count
        #expect(bytes > 0 && full > 0)
        second.disconnect()
        await secondTask.value
    }

    @Test func aTokenOfAnotherUsersListIsResetNotResumed() async throws {
        let store = try await Board.store()
        let resume = ResumeStore<Row>()
        let session = Board.session(store, resume: resume)
        let (owner1, task1) = try await Board.connect(session, owner: 1, open: Board.open())
        let token = try #require(owner1.listSent.last?.token)
        owner1.disconnect()
        await task1.value
        // Owner 2 presents owner 1's token: a reset, then owner 2's own list.
        let owner2 = try await Board.visit(session, owner: 2, open: Board.open(resume: token))
        #expect(owner2.listSent.map(\.type).prefix(2) == ["reset", "results"])
        #expect(owner2.listSent.first?.reason == "unknown")
        #expect(Board.ids(try Board.list(from: owner2.sent)) == (try await Board.fresh(store, owner: 2)))
        // Owner 1's state is still there for owner 1.
        let again = try await Board.visit(session, owner: 1, open: Board.open(resume: token))
        #expect(again.listSent.first?.type == "resumed")
    }

    @Test(arguments: ["garbage", "0123456789abcdef0123456789abcdef.7", ""])
    func anUnknownTokenIsResetThenTheWholeList(token: String) async throws {
        let store = try await Board.store()
        let session = Board.session(store, resume: ResumeStore<Row>())
        let (socket, task) = try await Board.connect(session, owner: 1, open: Board.open(resume: token))
        #expect(socket.listSent.map(\.type) == ["reset", "results"])
        socket.disconnect()
        await task.value
    }

    @Test func aStateNoLongerKeptIsExpired() async throws {
        let store = try await Board.store()
        let session = Board.session(store, resume: ResumeStore<Row>(statesPerSession: 2))
        let (socket, task) = try await Board.connect(session, owner: 1, open: Board.open())
        let oldest = try #require(socket.listSent.first?.token)
        // One write at a time, each batch received before the next (writes in flight together may share a batch).
        for round in 0..<3 {
            try await Board.write(store, rounds: round..<(round + 1))
            try await socket.wait(for: "batch \(round + 1)") { $0.filter { $0.type == "batch" }.count == round + 1 }
        }
        socket.disconnect()
        await task.value
        let (again, againTask) = try await Board.connect(session, owner: 1, open: Board.open(resume: oldest))
        #expect(again.listSent.map(\.type) == ["reset", "results"])
        #expect(again.listSent.first?.reason == "expired")
        again.disconnect()
        await againTask.value
    }
}
