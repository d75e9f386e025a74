import Testing

@testable import FetchKit

/// The change router's bounded input: one change at a time while it keeps up, a backlog folded into one
/// change that keeps every key.
@Suite("Change inbox")
struct ChangeInboxTests {
    let start = ContinuousClock.now

    func change(
        _ id: UInt64, _ table: String = "t", updated: [Int64] = [], deleted: [Int64] = [], at offset: Duration = .zero
    ) -> StoreChange {
        var change = StoreChange(
            transactionID: id,
            tables: [
                table: TableChange(updated: Set(updated.map(Value.integer)), deleted: Set(deleted.map(Value.integer)))
            ])
        change.publishedAt = start + offset
        return change
    }

    func routed(_ take: ChangeInbox.Take) -> (StoreChange, Int)? {
        if case .route(let change, let covers) = take { (change, covers) } else { nil }
    }

    @Test func changesWaitOneByOneWhileFew() {
        var inbox = ChangeInbox(limits: .init(changes: 4, age: .seconds(1)))
        for id in 1...4 { _ = inbox.receive(change(UInt64(id), updated: [Int64(id)])) }
        for id in 1...4 {
            let (next, covers) = try! #require(routed(inbox.take(at: start)))
            #expect(next.transactionID == UInt64(id) && covers == 1)
        }
        let waiting = inbox.take(at: start)
        #expect(waiting.kind == "wait")
        #expect(inbox.isAwaited)
    }

    @Test func aBacklogFoldsIntoOneChangeWithEveryKey() throws {
        var inbox = ChangeInbox(limits: .init(changes: 4, age: .seconds(1)))
        for id in 1...10 { _ = inbox.receive(change(UInt64(id), updated: [Int64(id % 7)], at: .milliseconds(id))) }
        #expect(inbox.count == 1)
        let (folded, covers) = try #require(routed(inbox.take(at: start)))
        #expect(covers == 10)
        #expect(folded.transactionID == 10)
        #expect(folded.publishedAt == start + .milliseconds(1))
        #expect(folded.tables["t"]?.allKeys == Set((0..<7).map { Value.integer($0) }))
        let waiting = inbox.take(at: start)
        #expect(waiting.kind == "wait")
    }

    @Test func laterChangesJoinAWaitingFoldThenQueueAgainOnceItIsTaken() throws {
        var inbox = ChangeInbox(limits: .init(changes: 2, age: .seconds(1)))
        for id in 1...3 { _ = inbox.receive(change(UInt64(id), updated: [1])) }
        _ = inbox.receive(change(4, "u", updated: [9]))
        #expect(inbox.count == 1)
        let (folded, covers) = try #require(routed(inbox.take(at: start)))
        #expect(covers == 4 && folded.transactionID == 4 && Set(folded.tables.keys) == ["t", "u"])
        _ = inbox.receive(change(5, updated: [2]))
        _ = inbox.receive(change(6, updated: [3]))
        #expect(inbox.count == 2)
        #expect(try #require(routed(inbox.take(at: start))).0.transactionID == 5)
    }

    @Test func anOldChangeFoldsWhatWaitsWithIt() throws {
        var inbox = ChangeInbox(limits: .init(changes: 64, age: .milliseconds(100)))
        for id in 1...3 { _ = inbox.receive(change(UInt64(id), updated: [Int64(id)], at: .milliseconds(id))) }
        let (young, _) = try #require(routed(inbox.take(at: start + .milliseconds(50))))
        #expect(young.transactionID == 1)
        let (old, covers) = try #require(routed(inbox.take(at: start + .milliseconds(500))))
        #expect(old.transactionID == 3 && covers == 2)
    }

    @Test func aSyncCallerFoldsWhatWaits() throws {
        var inbox = ChangeInbox(limits: .init(changes: 64, age: .seconds(10)))
        for id in 1...5 { _ = inbox.receive(change(UInt64(id), updated: [Int64(id)])) }
        inbox.expedite()
        let (folded, covers) = try #require(routed(inbox.take(at: start)))
        #expect(folded.transactionID == 5 && covers == 5)
    }

    @Test func tooManyKeysBecomeTheWholeTable() throws {
        var inbox = ChangeInbox(limits: .init(changes: 1, age: .seconds(1), keysPerTable: 5))
        for id in 1...4 { _ = inbox.receive(change(UInt64(id), updated: [Int64(id * 2), Int64(id * 2 + 1)])) }
        let (folded, _) = try #require(routed(inbox.take(at: start)))
        #expect(folded.tables["t"] == TableChange(isWholeTable: true))
    }

    @Test func aResyncFoldsEverythingIntoAResync() throws {
        var inbox = ChangeInbox(limits: .init(changes: 2, age: .seconds(1)))
        _ = inbox.receive(change(1, updated: [1]))
        _ = inbox.receive(.resync(transactionID: 2))
        _ = inbox.receive(change(3, updated: [2]))
        let (folded, covers) = try #require(routed(inbox.take(at: start)))
        #expect(folded.isResync && folded.tables.isEmpty && folded.transactionID == 3 && covers == 3)
    }

    @Test func deletionsStayDeletions() {
        let folded = change(1, deleted: [1]).folding(change(2, updated: [1]), keyLimit: 100)
        #expect(folded.tables["t"]?.deleted == [.integer(1)])
        #expect(folded.tables["t"]?.updated == [.integer(1)])
    }

    @Test func aWaitingRouterIsWokenAndTheEndIsSaid() {
        var inbox = ChangeInbox()
        let waiting = inbox.take(at: start)
        #expect(waiting.kind == "wait")
        let woken = inbox.receive(change(1))
        let wokenAgain = inbox.receive(change(2))
        #expect(woken && !wokenAgain)
        _ = inbox.take(at: start)
        _ = inbox.take(at: start)
        let waitingAgain = inbox.take(at: start)
        #expect(waitingAgain.kind == "wait")
        let ended = inbox.finish()
        #expect(ended)
        let end = inbox.take(at: start)
        #expect(end.kind == "finished")
        let afterEnd = inbox.receive(change(3))
        #expect(!afterEnd)
    }

    @Test func whatWaitsIsStillRoutedAfterTheEnd() throws {
        var inbox = ChangeInbox()
        _ = inbox.receive(change(1))
        _ = inbox.finish()
        #expect(try #require(routed(inbox.take(at: start))).0.transactionID == 1)
        let end = inbox.take(at: start)
        #expect(end.kind == "finished")
    }

    @Test func theOldestWaitingChangeIsKnown() {
        var inbox = ChangeInbox()
        #expect(inbox.oldestPublished == nil)
        _ = inbox.receive(change(1, at: .milliseconds(3)))
        _ = inbox.receive(change(2, at: .milliseconds(4)))
        #expect(inbox.oldestPublished == start + .milliseconds(3))
        _ = inbox.take(at: start)
        #expect(inbox.oldestPublished == start + .milliseconds(4))
    }
}

extension ChangeInbox.Take {
    var kind: String {
        switch self {
        case .route: "route"
        case .wait: "wait"
        case .finished: "finished"
        }
    }
}
