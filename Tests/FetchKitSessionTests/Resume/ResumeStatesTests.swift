import Testing

@testable import FetchKit
@testable import FetchKitSession

/// The kept states as a value: bounded in age, per session and in rows.
@Suite("Resume states")
struct ResumeStatesTests {
    private let start = ContinuousClock.now
    private let request = AnyFetchRequest(entity: "Card")
    private let other = AnyFetchRequest(entity: "Card", predicate: .key("owner") == 2)

    private func snapshot(rows: Int) -> ResultsSnapshot<Row> {
        let rows: [Row] = (0..<rows).map { ["id": .integer(Int64($0))] }
        return ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: nil, order: nil)
    }

    @Test func aSessionKeepsItsLastStatesAndForgetsOlderOnes() {
        var states = ResumeStates<Row>(keepFor: .seconds(60), statesPerSession: 2, maximumRows: 1_000)
        for sequence in UInt64(1)...3 {
            states.sent(snapshot(rows: 1), sequence: sequence, session: "a", request: request, at: start)
        }
        func lookup(_ sequence: UInt64, _ request: AnyFetchRequest) -> String {
            switch states.lookup(ResumeToken(session: "a", sequence: sequence), request: request, at: start) {
            case .found: "found"
            case .expired: "expired"
            case .unknown: "unknown"
            }
        }
        #expect(lookup(3, request) == "found")
        #expect(lookup(2, request) == "found")
        #expect(lookup(1, request) == "expired")
        #expect(lookup(4, request) == "unknown")
        #expect(lookup(3, other) == "unknown")
    }

    @Test func sessionsAgeOutAndTheOldestGoFirstPastTheRowBound() {
        var states = ResumeStates<Row>(keepFor: .seconds(60), statesPerSession: 4, maximumRows: 25)
        states.sent(snapshot(rows: 10), sequence: 1, session: "old", request: request, at: start)
        states.sent(snapshot(rows: 10), sequence: 1, session: "mid", request: request, at: start + .seconds(1))
        states.sent(snapshot(rows: 10), sequence: 1, session: "new", request: request, at: start + .seconds(2))
        #expect(states.sessions.keys.sorted() == ["mid", "new"])
        #expect(states.rows == 20)
        let late = start + .seconds(62)
        if case .found = states.lookup(ResumeToken(session: "mid", sequence: 1), request: request, at: late) {
            Issue.record("a state older than keepFor was found")
        }
        #expect(states.sessions.keys.sorted() == ["new"])
    }

    @Test func restoredSessionsKeepTheirAgeCountingTheRestartAndFitTheNewBounds() {
        var first = ResumeStates<Row>(keepFor: .seconds(60), statesPerSession: 4, maximumRows: 1_000)
        for sequence in UInt64(1)...3 {
            first.sent(snapshot(rows: 2), sequence: sequence, session: "old", request: request, at: start)
        }
        first.sent(snapshot(rows: 5), sequence: 1, session: "new", request: other, at: start + .seconds(30))
        let archived = first.archived(at: start + .seconds(40))
        #expect(archived.map(\.id) == ["new", "old"] && archived.map(\.age) == [.seconds(10), .seconds(40)])
        // The next process starts 5 s later, keeping one state a session and 6 rows at most.
        var next = ResumeStates<Row>(keepFor: .seconds(60), statesPerSession: 1, maximumRows: 6)
        let now = ContinuousClock.now
        #expect(next.restore(archived, elapsed: .seconds(5), at: now) == 1)
        #expect(next.sessions.keys.sorted() == ["new"] && next.rows == 5)
        var wide = ResumeStates<Row>(keepFor: .seconds(60), statesPerSession: 2, maximumRows: 100)
        #expect(wide.restore(archived, elapsed: .seconds(5), at: now) == 2 && wide.rows == 9)
        func lookup(
            _ session: String, _ sequence: UInt64, _ request: AnyFetchRequest, at instant: ContinuousClock.Instant
        ) -> String {
            switch wide.lookup(ResumeToken(session: session, sequence: sequence), request: request, at: instant) {
            case .found(.archived): "archived"
            case .found(.snapshot): "snapshot"
            case .expired: "expired"
            case .unknown: "unknown"
            }
        }
        #expect(lookup("old", 3, request, at: now) == "archived")
        #expect(lookup("old", 1, request, at: now) == "expired")
        #expect(lookup("old", 3, other, at: now) == "unknown")
        // Sessions kept are never replaced by restored ones.
        #expect(wide.restore(archived, elapsed: .seconds(5), at: now) == 0 && wide.rows == 9)
        // "new" was 15 s old: 46 s more and it is forgotten ("old" was looked up, so it is young again).
        #expect(lookup("new", 1, other, at: now + .seconds(46)) == "unknown")
        #expect(wide.sessions.keys.sorted() == ["old"])
        // A session 40 s old at the save is not restored after a restart of 21 s (with keepFor 60 s).
        var late = ResumeStates<Row>(keepFor: .seconds(60), statesPerSession: 4, maximumRows: 100)
        #expect(late.restore(archived, elapsed: .seconds(21), at: now) == 1 && late.sessions.keys.sorted() == ["new"])
    }

    @Test func tokensParseOnlyWhenWellFormed() {
        #expect(ResumeToken("0123456789abcdef0123456789abcdef.12")?.sequence == 12)
        for bad in [
            "", "x.1", "0123456789ABCDEF0123456789abcdef.1", "0123456789abcdef0123456789abcdef.",
            "0123456789abcdef0123456789abcdef.-1", "0123456789abcdef0123456789abcdef.1.2"
        ] {
            #expect(ResumeToken(bad) == nil, "\(bad)")
        }
        let fresh = ResumeToken.newSession()
        #expect(fresh.count == 32 && fresh != ResumeToken.newSession())
    }
}
