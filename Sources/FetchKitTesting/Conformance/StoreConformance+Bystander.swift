import FetchKit
import FetchKitFixtures
import Foundation

/// Another writer that races a user's drags without touching the rows the user drags: it inserts todos into
/// random sections at random places, and renames or deletes only todos it inserted (their keys are above
/// `userKeys`). Whatever batch then moves, inserts or deletes one of the user's rows is the controller's doing.
///
/// It never deletes the todo it inserted last: SQLite gives a new row the largest key plus one, so deleting the
/// row with the largest key hands its key to the next insert — and a drop named "before" the deleted row would
/// then follow that new row elsewhere, which is the move's meaning (the key names the row), not a bounce.
struct Bystander {
    /// The user's rows: every todo whose key is at most this.
    let userKeys: Int64
    /// The most rows of its own it keeps: with that many, it deletes one where it would insert one.
    var ownLimit = Int.max
    private var own: [Value] = []

    init(userKeys: Int64) {
        self.userKeys = userKeys
    }

    /// Writes `count` transactions of one or two operations each.
    mutating func write(_ count: Int, to store: any PersistentStore, using random: inout SeededRandom) async throws {
        for _ in 0..<count {
            let operations = (0..<random.int(1...2)).map { _ in (kind: random.int(0..<10), pick: random.int(0..<1_000))
            }
            let (owned, limit) = (own, ownLimit)
            let (inserted, removed) = try await store.write { tx -> ([Value], Set<Value>) in
                var inserted: [Value] = []
                var removed: Set<Value> = []
                for (kind, pick) in operations {
                    let newest = inserted.last ?? owned.last
                    let alive = owned.filter { !removed.contains($0) }
                    let deletable = alive.filter { $0 != newest }
                    let full = alive.count >= limit && !deletable.isEmpty
                    if (kind < 6 && !full) || alive.isEmpty || (kind < 8 && deletable.isEmpty) {
                        inserted.append(
                            try tx.insert(
                                [
                                    "title": .text("bystander \(pick)"), "priority": .integer(Int64(pick % 7)),
                                    "done": .bool(pick % 2 == 0), "categoryID": .integer(Int64(1 + pick % 3)),
                                    "ordering": pick % 5 == 0 ? .null : .double(Double(pick % 40) / 2 - 5)
                                ], into: "Todo"))
                    } else if kind < 8 {
                        let key = deletable[pick % deletable.count]
                        try tx.delete("Todo", key: key)
                        removed.insert(key)
                    } else {
                        // Its rows keep their place: a user's drop named "before" one of them moves with it, which
                        // is the move's meaning, not a bounce.
                        try tx.update("Todo", key: alive[pick % alive.count], set: ["title": .text("renamed \(pick)")])
                    }
                }
                return (inserted, removed)
            }
            own.removeAll { removed.contains($0) }
            own += inserted
        }
    }
}
