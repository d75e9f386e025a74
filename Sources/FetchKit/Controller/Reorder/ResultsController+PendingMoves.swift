/// The results a view with waiting moves is to show (``ResultsController/results(_:with:request:view:)``).
struct MovedResults<Object: Sendable>: Sendable {
    var snapshot: ResultsSnapshot<Object>
    /// The dragged rows whose moves no longer apply: the view gets them back where the results have them, so a
    /// batch to ``snapshot`` moves them rather than the rows around them (a dragged row among those, say).
    var unplaced: Set<Value> = []
}

extension ResultsController {
    /// What the controller's machine makes of a view's waiting moves on new results, as `request` orders them
    /// (``results(_:with:request:view:)``).
    func replay(for request: AnyFetchRequest) -> Machine.Replay {
        { results, moves, view in self.results(results, with: moves, request: request, view: view) }
    }

    /// `results` as a view whose `moves` wait to be written shows them: each move made again, by identity,
    /// on `results` (see ``PendingMoves``). `view` is what the view shows now: a move to the end of a section
    /// that the results no longer have (its other rows left it) puts the row in that section, empty in the
    /// results, where the view shows it — the view still shows the section, holding the row.
    ///
    /// A move whose row or neighbour left the results, or that the request no longer takes (it changed
    /// meanwhile), is not made: the view shows the row where the results have it, as it will once the
    /// move's write fails.
    ///
    /// - Complexity: O(1) without waiting moves; O(*m* × *n*) for *m* moves over *n* rows.
    func results(
        _ results: ResultsSnapshot<Object>, with moves: PendingMoves, request: AnyFetchRequest,
        view: ResultsSnapshot<Object>?
    ) -> MovedResults<Object> {
        guard !moves.isEmpty else { return MovedResults(snapshot: results) }
        var unplaced: Set<Value> = []
        let moved = moves.applied(to: results) { base, move in
            do {
                let base = Self.keepingSection(of: move, shownIn: view, in: base)
                let (from, to) = try resolve(.key(move.key, move.destination), in: base)
                let placed = try planMove(from: from, to: to, in: base, request: request)?.shown ?? base
                unplaced.remove(move.key)
                return placed
            } catch {
                unplaced.insert(move.key)
                logger.debug(
                    "a waiting move no longer applies to the results",
                    metadata: ["key": "\(move.key)", "reason": "\(error)"])
                return nil
            }
        }
        return MovedResults(snapshot: moved, unplaced: unplaced)
    }

    /// `base` with the empty section `move` goes to the end of, when `base` lacks it and `view` shows it: placed
    /// after the sections that come before it in `view` (both are in the order of the section key).
    private static func keepingSection(
        of move: PendingMoves.Move, shownIn view: ResultsSnapshot<Object>?, in base: ResultsSnapshot<Object>
    ) -> ResultsSnapshot<Object> {
        guard case .endOfSection(let name) = move.destination, base.sectionNames.sectionIndex(of: name) == nil,
            let view, let shown = view.sectionNames.sectionIndex(of: name)
        else { return base }
        let before = view.sectionNames[..<shown].reversed().lazy.compactMap { base.sectionNames.sectionIndex(of: $0) }
        return base.insertingEmptySection(name, at: before.first.map { $0 + 1 } ?? 0)
    }
}

extension ResultsSnapshot {
    /// This snapshot with an empty section named `name` at section index `index`.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    func insertingEmptySection(_ name: String, at index: Int) -> ResultsSnapshot {
        var names = sectionNames
        var starts = sectionStarts
        starts.insert(index < starts.count ? starts[index] : entries.count, at: index)
        names.insert(name, at: index)
        return ResultsSnapshot(
            entries: entries, sectionNames: names, sectionStarts: starts, locator: locator, primaryKey: primaryKey)
    }
}
