/// A results part's link to its controller: it is the controller's delegate, and turns each batch into the
/// change of what the composite shows (capped sections), diffing from the last shown content.
final class ResultsPartSource<Object: Sendable>: ResultsControllerDelegate, Sendable {
    let controller: ResultsController<Object>
    let limit: Int?
    let index: Int
    /// Reports a part change to the composite, which owns the lock over every part's state.
    let report: @Sendable (Int, UInt64?, _ translate: @escaping CompositeMachine.Translate) -> Void
    /// Reports the part's permanent failure to the composite.
    let reportFailure: @Sendable (FetchKitError) -> Void

    init(
        controller: ResultsController<Object>, limit: Int?, index: Int,
        report: @escaping @Sendable (Int, UInt64?, @escaping CompositeMachine.Translate) -> Void,
        reportFailure: @escaping @Sendable (FetchKitError) -> Void
    ) {
        self.controller = controller
        self.reportFailure = reportFailure
        self.limit = limit
        self.index = index
        self.report = report
    }

    /// What the composite shows of `snapshot`: each section cut to `limit` rows.
    func content(of snapshot: ResultsSnapshot<Object>) -> PartContent {
        let window: ResultsSnapshot<Object>
        if let limit {
            let cut = snapshot.sectionEntries.map { (name: $0.name, entries: Array($0.entries.prefix(limit))) }
            window = ResultsSnapshot(sections: cut, primaryKey: snapshot.primaryKey, order: nil)
        } else {
            window = snapshot
        }
        return PartContent(names: window.sectionNames, counts: window.sectionCounts, window: window, fixedRows: [])
    }

    func controller(_ controller: ResultsController<Object>, didApply update: ResultsBatch<Object>) {
        let next = content(of: update.snapshot)
        report(index, update.transactionID) { last in
            guard let shown = last.window as? ResultsSnapshot<Object>,
                let nextWindow = next.window as? ResultsSnapshot<Object>
            else { return nil }
            let changeset = try ResultsDiff.changeset(from: shown, to: nextWindow)
            return changeset.isEmpty ? nil : (changeset, next)
        }
    }

    func controller(_ controller: ResultsController<Object>, didFailWith error: FetchKitError) {
        reportFailure(error)
    }
}
