@_spi(Backend) import FetchKit
import Testing

@testable import FetchKit

/// The controller's queue knows when the oldest store change it has not applied was published, also once its
/// backlog collapsed into a catch-up.
@Suite("Controller queue lag")
struct ControllerCommandQueueLagTests {
    let start = ContinuousClock.now

    func routed(_ id: UInt64, at offset: Duration) -> ControllerCommand {
        var change = StoreChange(transactionID: id, tables: ["t": TableChange(updated: [.integer(1)])])
        change.publishedAt = start + offset
        return .routed(RoutedChange(change: change, rows: [:]))
    }

    @Test func theOldestIsTheRunningChangeThenTheFirstWaiting() {
        var queue = ControllerCommandQueue()
        #expect(queue.oldestUnapplied == nil)
        // Queued before either change's publication, however slow the machine: a change that has waited at all
        // (``ControllerCommandQueue/foldAge`` is zero) would fold with the next.
        let now = start
        _ = queue.append(.retry, at: now)
        _ = queue.append(routed(1, at: .milliseconds(10)), at: now)
        _ = queue.append(routed(2, at: .milliseconds(20)), at: now)
        #expect(queue.oldestUnapplied == start + .milliseconds(10))
        _ = queue.next()  // the retry runs: the first change still waits
        #expect(queue.oldestUnapplied == start + .milliseconds(10))
        _ = queue.next()  // change 1 runs
        #expect(queue.oldestUnapplied == start + .milliseconds(10))
        _ = queue.next()  // change 2 runs
        #expect(queue.oldestUnapplied == start + .milliseconds(20))
        #expect(queue.next() == nil)
        #expect(queue.oldestUnapplied == nil)
    }

    @Test func aBacklogFoldsIntoOneRoutedChangeThatKeepsItsOldest() {
        var queue = ControllerCommandQueue()
        let total = ControllerCommandQueue.backlogLimit + 3
        for id in 1...total { _ = queue.append(routed(UInt64(id), at: .milliseconds(id))) }
        #expect(queue.backlog == 1)
        #expect(queue.oldestUnapplied == start + .milliseconds(1))
        guard case .routed(let fold)? = queue.next()?.command else {
            Issue.record("expected a fold")
            return
        }
        #expect(fold.covers == total && fold.change.transactionID == UInt64(total) && fold.earliestRead == 1)
        #expect(fold.change.publishedAt == start + .milliseconds(1))
        #expect(queue.next() == nil && queue.backlog == 0)
    }

    @Test func foldedRowsKeepTheLatestReadOfEachKey() {
        func rows(_ pairs: [(Int64, Int64?)]) -> RereadRows {
            let layout = RowLayout(names: ["id", "v"])
            var found: [Value: Row] = [:]
            for case (let key, let v?) in pairs {
                found[.integer(key)] = Row(layout: layout, values: [.integer(key), .integer(v)])
            }
            return RereadRows(
                keys: Set(pairs.map { .integer($0.0) }), rows: found, relatedColumns: [], followed: [:])
        }
        func change(_ id: UInt64, _ reread: RereadRows) -> RoutedChange {
            RoutedChange(
                change: StoreChange(transactionID: id, tables: ["t": TableChange(updated: reread.keys)]),
                rows: ["t": reread])
        }
        var fold = change(1, rows([(1, 10), (2, 20)]))
        fold.absorb(change(2, rows([(2, nil), (3, 30)])), keyLimit: 100)
        let merged = fold.rows["t"]
        #expect(merged?.keys == [.integer(1), .integer(2), .integer(3)])
        #expect(merged?.rows[.integer(1)]?["v"] == .integer(10))
        #expect(merged?.rows[.integer(2)] == nil)
        #expect(merged?.rows[.integer(3)]?["v"] == .integer(30))
        #expect(fold.covers == 2 && fold.earliestRead == 1 && fold.change.transactionID == 2)
    }

    @Test func aResyncCollapsesTheChangesWaitingBeforeIt() {
        var queue = ControllerCommandQueue()
        _ = queue.append(routed(1, at: .milliseconds(1)))
        var resync = StoreChange.resync(transactionID: 2)
        resync.publishedAt = start + .milliseconds(2)
        _ = queue.append(.routed(RoutedChange(change: resync, rows: [:])))
        _ = queue.append(routed(3, at: .milliseconds(3)))
        #expect(queue.backlog == 1)
        guard case .catchUp(let count, let through, let since)? = queue.next()?.command else {
            Issue.record("expected a catch-up")
            return
        }
        #expect(count == 3 && through == 3 && since == start + .milliseconds(1))
    }

    @Test func aControllerBehindHoldsOneRoutedChangeWaiting() {
        var queue = ControllerCommandQueue()
        // Nothing waits: the change waits alone (a controller that keeps up gets one batch per transaction).
        _ = queue.append(routed(1, at: .zero), at: start)
        #expect(queue.backlog == 1)
        // A change arriving while one waits (the controller is behind) folds into it, and so does every later one.
        _ = queue.append(routed(2, at: .milliseconds(1)), at: start + .milliseconds(1))
        _ = queue.append(routed(3, at: .milliseconds(2)), at: start + .milliseconds(2))
        _ = queue.append(routed(4, at: .milliseconds(3)), at: start + .milliseconds(3))
        #expect(queue.backlog == 1)
        guard case .routed(let fold)? = queue.next()?.command else {
            Issue.record("expected a fold")
            return
        }
        #expect(fold.covers == 4 && fold.change.transactionID == 4 && fold.change.publishedAt == start)
        #expect(queue.next() == nil && queue.backlog == 0)
        // Once it has run, the next change waits alone again.
        _ = queue.append(routed(5, at: .milliseconds(4)), at: start + .milliseconds(4))
        guard case .routed(let alone)? = queue.next()?.command else {
            Issue.record("expected a routed change")
            return
        }
        #expect(alone.covers == 1 && alone.change.transactionID == 5)
    }
}
