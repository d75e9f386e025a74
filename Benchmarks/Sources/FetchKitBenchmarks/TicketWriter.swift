import FetchKit
import FetchKitSQLite
import Foundation

/// Writes to the session's tickets at a steady rate, one transaction each: of every 100, 60 retitle a ticket, 20
/// change its priority (a move in its section), 8 its status (a move to another section), 6 insert a ticket and 6
/// delete one — each write stamps `updated`. Seeded, so every run writes the same.
struct TicketWriter {
    private var random: BenchRandom
    /// The session's tickets now.
    private var live: [Int64]
    private var nextID: Int64
    /// The `updated` stamp of the next write: one second after the last.
    private var stamp: Double

    /// A writer of the board `TicketBoard.open(rows:)` made.
    init(rows: Int, seed: UInt64) {
        random = BenchRandom(seed: seed)
        live = (1...Int64(rows)).map { $0 }
        nextID = Int64(2 * rows + 1)
        stamp = Self.epoch + Double(2 * rows + 1)
    }

    /// When the seeded tickets were last updated: ticket `id` at `epoch + id` seconds.
    static let epoch: Double = 1_796_000_000

    /// A ticket of `project`, with a random status, priority, title and assignee.
    static func newTicket(id: Int64, project: Int64, using random: inout BenchRandom) -> Row {
        [
            "id": .integer(id), "project": .integer(project),
            "status": .text(TicketBoard.statuses.randomElement(using: &random) ?? ""),
            "priority": .integer(Int64.random(in: 1...5, using: &random)),
            "title": .text(BenchRandom.title(using: &random)),
            "assignee": .text(TicketBoard.assignees.randomElement(using: &random) ?? ""),
            "updated": .date(Date(timeIntervalSince1970: epoch + Double(id)))
        ]
    }

    /// Commits `rate` writes a second for `duration` (each its own transaction, paced from the start: a write
    /// that falls behind is followed at once by the next); returns how many it committed.
    mutating func run(_ store: SQLiteStore, rate: Int, for duration: Duration) async throws -> Int {
        let clock = ContinuousClock()
        let start = clock.now
        let interval = Duration.seconds(1) / max(rate, 1)
        var count = 0
        while interval * count < duration {
            try await Task.sleep(until: start + interval * count, clock: clock)
            let write = next()
            try await store.write { tx in try write(tx) }
            count += 1
        }
        return count
    }

    /// The next write, as the transaction's body.
    private mutating func next() -> @Sendable (any WriteTransaction) throws -> Void {
        let now = Value.date(Date(timeIntervalSince1970: stamp))
        stamp += 1
        let roll = random.next() % 100
        if roll >= 88 {
            if roll >= 94, live.count > 1 {
                let id = live.swapRemoveRandom(using: &random)
                return { tx in try tx.delete("Ticket", key: .integer(id)) }
            }
            let ticket = Self.newTicket(id: nextID, project: TicketBoard.project, using: &random)
            live.append(nextID)
            nextID += 1
            return { tx in try tx.insert(ticket, into: "Ticket") }
        }
        let id = live.randomElement(using: &random) ?? 1
        let change: Row =
            switch roll {
            case 0..<60: ["title": .text(BenchRandom.title(using: &random)), "updated": now]
            case 60..<80: ["priority": .integer(Int64.random(in: 1...5, using: &random)), "updated": now]
            default: ["status": .text(TicketBoard.statuses.randomElement(using: &random) ?? ""), "updated": now]
            }
        return { tx in try tx.update("Ticket", key: .integer(id), set: change) }
    }
}

extension Array {
    /// Removes a random element in O(1) (the last takes its place) and returns it.
    fileprivate mutating func swapRemoveRandom(using random: inout BenchRandom) -> Element {
        let index = Int.random(in: indices, using: &random)
        swapAt(index, count - 1)
        return removeLast()
    }
}
