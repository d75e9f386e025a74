extension ResultsController {
    /// `results` as a view whose `moves` wait to be written shows them: each move made again, by identity,
    /// on `results` (see ``PendingMoves``).
    ///
    /// - Complexity: O(1) without waiting moves; O(*m* × *n*) for *m* moves over *n* rows.
    func results(
        _ results: ResultsSnapshot<Object>, with moves: PendingMoves, request: FetchRequest
    ) -> ResultsSnapshot<Object> {
        guard !moves.isEmpty else { return results }
        return moves.applied(to: results, placer(for: request))
    }

    /// Makes one waiting move again on results, as `request` orders them: the results with the move made.
    ///
    /// A move whose row or neighbour left the results, or that the request no longer takes (it changed
    /// meanwhile), is not made (`nil`): the view shows the row where the results have it, as it will once the
    /// move's write fails.
    func placer(for request: FetchRequest) -> Machine.Placer {
        { base, move in
            do {
                let (from, to) = try self.resolve(.key(move.key, move.destination), in: base)
                return try self.planMove(from: from, to: to, in: base, request: request)?.shown
            } catch {
                self.logger.debug(
                    "a waiting move no longer applies to the results",
                    metadata: ["key": "\(move.key)", "reason": "\(error)"])
                return nil
            }
        }
    }
}
