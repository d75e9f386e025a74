/// The moves a view of the results made itself — a user's drag, shown at once — that the controller has not
/// written yet, in the order the view made them.
///
/// While a move waits, every batch the view receives leads to the controller's results *with the moves
/// applied*, so the view never hears of the dragged row: a writer's change computed before the move was
/// written does not move the row back, and the move's own write then changes nothing the view shows.
struct PendingMoves: Sendable {
    /// One move: the dragged row and where it went, both by identity.
    struct Move: Sendable, Equatable {
        var id: Int
        var key: Value
        var destination: MoveDestination
        /// For a view fed through a buffer: the move was written once the buffer had taken this many batches;
        /// those up to it were computed without the move and still need it applied.
        var settledAfter: Int?
    }

    private(set) var moves: [Move] = []
    private var nextID = 1

    /// `true` when no move waits.
    var isEmpty: Bool { moves.isEmpty }

    /// Adds a move the view made; returns its identifier, for ``remove(_:)``.
    mutating func add(key: Value, destination: MoveDestination) -> Int {
        defer { nextID += 1 }
        moves.append(Move(id: nextID, key: key, destination: destination))
        return nextID
    }

    /// Forgets move `id`: it was written (the results show it) or failed (the view gets the row back).
    mutating func remove(_ id: Int) {
        moves.removeAll { $0.id == id }
    }

    /// Marks move `id` written once the view's buffer has taken `push` batches: the batches up to that one,
    /// still waiting in the buffer, were computed without it (see ``waiting(at:)``).
    mutating func settle(_ id: Int, after push: Int) {
        guard let index = moves.firstIndex(where: { $0.id == id }) else { return }
        moves[index].settledAfter = push
    }

    /// The moves that batch number `push` of a buffer still lacks: those not written, and those written after
    /// that batch was taken.
    func waiting(at push: Int) -> PendingMoves {
        var waiting = self
        waiting.moves.removeAll { move in move.settledAfter.map { push > $0 } ?? false }
        return waiting
    }

    /// Forgets the written moves that no batch up to `push` needs any more.
    mutating func prune(through push: Int) {
        moves.removeAll { move in move.settledAfter.map { push >= $0 } ?? false }
    }

    /// `results` with every waiting move applied in turn by `place`, which returns the results with one move
    /// made, or `nil` when that move no longer applies (its row or its neighbour left the results): then the
    /// view shows the row where the results have it, as it will once the move's write fails.
    ///
    /// - Complexity: O(*m* × *n*) for *m* waiting moves and *n* rows (each move rebuilds the results).
    func applied<Object>(
        to results: ResultsSnapshot<Object>,
        _ place: (ResultsSnapshot<Object>, Move) throws -> ResultsSnapshot<Object>?
    ) rethrows -> ResultsSnapshot<Object> {
        var moved = results
        for move in moves {
            if let next = try place(moved, move) { moved = next }
        }
        return moved
    }
}
