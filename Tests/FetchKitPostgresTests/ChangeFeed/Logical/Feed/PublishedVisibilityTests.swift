import Testing

@testable import FetchKitPostgres

/// The logical feed publishes without asking the server anything; a read waits only for what was published
/// before it and not yet seen, and stops waiting a second after the last of it was published.
@Suite("Published visibility")
struct PublishedVisibilityTests {
    @Test func aReadWaitsForWhatWasPublishedUntilASnapshotSeesIt() throws {
        let start = ContinuousClock.now
        var ledger = PublishedVisibility()
        #expect(ledger.check(at: start) == nil, "nothing published: a read asks nothing")
        ledger.publish([101, 102], at: start)
        ledger.publish([103], at: start + .milliseconds(10))
        let check = try #require(ledger.check(at: start + .milliseconds(20)))
        #expect(check.transactionIDs == [101, 102, 103])
        #expect(check.deadline == start + .milliseconds(10) + PublishedVisibility.patience)
        // Published while the read checked: not confirmed by it.
        ledger.publish([104], at: start + .milliseconds(30))
        ledger.confirm(through: check.through)
        #expect(ledger.unconfirmedCount == 1)
        #expect(ledger.check(at: start + .milliseconds(40))?.transactionIDs == [104])
        ledger.confirm(through: try #require(ledger.check(at: start + .milliseconds(40))).through)
        #expect(ledger.check(at: start + .milliseconds(50)) == nil)
    }

    @Test func whatNoSnapshotShowedWithinASecondIsNoLongerWaitedFor() {
        let start = ContinuousClock.now
        var ledger = PublishedVisibility()
        ledger.publish([7], at: start)
        #expect(ledger.check(at: start + .milliseconds(1_500)) == nil)
        // Publishing later forgets it; memory stays bounded however long no read comes.
        for index in 0..<10_000 {
            ledger.publish([UInt32(index)], at: start + .seconds(2) + .milliseconds(index))
        }
        #expect(ledger.unconfirmedCount <= 1_001)
    }
}
