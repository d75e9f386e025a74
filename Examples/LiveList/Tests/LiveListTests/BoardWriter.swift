import FetchKit
import LiveListModel

/// Another app instance editing a team's cards at a steady rate: each write one transaction that renames a card
/// and toggles whether it is done.
struct BoardWriter: Sendable {
    let store: any PersistentStore
    let team: String

    /// Commits `rate` writes a second (from four concurrent writers) for `duration`; returns how many it committed.
    func run(rate: Int, for duration: Duration) async throws -> Int {
        let cards = try await store.fetch(FetchRequest<Card>(predicate: .key("team") == team)).compactMap(\.id)
        let writers = 4
        let interval = Duration.seconds(1) * writers / rate
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var count = 0
                    var next = start + interval * writer / writers
                    while next < start + duration {
                        let key = cards[(count * writers + writer) % cards.count]
                        let done = count % 2 == 0
                        let title = "Edit \(count)"
                        _ = try await store.write { tx in
                            try tx.update(
                                Card.entity.name, key: .integer(key),
                                set: ["done": .bool(done), "title": .text(title)])
                        }
                        count += 1
                        next += interval
                        if next > .now { try await Task.sleep(until: next) }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
    }
}
