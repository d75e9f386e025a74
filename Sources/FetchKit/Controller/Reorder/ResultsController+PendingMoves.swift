extension ResultsController {
    /// `results` as a view whose `moves` wait to be written shows them: each move made again, by identity,
    /// on `results` (see ``PendingMoves``).
    ///
    /// A move whose row or neighbour left the results, or that the request no longer takes (it changed
    /// meanwhile), is not made: the view shows the row where the results have it, as it will once the
    /// move's write fails.
    ///
    /// - Complexity: O(1) without waiting moves; O(*m* × *n*) for *m* moves over *n* rows.
    func results(
        _ results: ResultsSnapshot<Object>, with moves: PendingMoves, request: FetchRequest
    ) -> ResultsSnapshot<Object> {
        guard !moves.isEmpty else { return results }
        return moves.applied(to: results) { base, move in
            do {
                let (from, to) = try resolve(.key(move.key, move.destination), in: base)
                return try planMove(from: from, to: to, in: base, request: request)?.shown
            } catch {
                logger.debug(
                    "a waiting move no longer applies to the results",
                    metadata: ["key": "\(move.key)", "reason": "\(error)"])
                return nil
            }
        }
    }
}
