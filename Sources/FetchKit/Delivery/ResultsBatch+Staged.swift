extension ResultsBatch {
    /// One stage of a batch for collection views, with the sections of objects to show once it is applied.
    public struct StagedStep: Sendable {
        /// The stage: its kind and its changes.
        public let stage: StagedChangeset.Stage
        /// The sections after the stage: feed them to the data source inside the stage's batch update.
        public let sections: [(name: String, objects: [Object])]
    }

    /// This batch as staged changes for collection views — updates; deletes; section inserts and moves; row
    /// inserts and moves — each stage with the snapshot after it, as DifferenceKit-style consumers apply them.
    ///
    /// ```swift
    /// for step in try update.staged() {
    ///     collectionView.performBatchUpdates { dataSource.sections = step.sections; apply(step.stage) }
    /// }
    /// ```
    ///
    /// Empty for the first element of an updates stream (no changeset).
    /// - Throws: ``FetchKitError/Code/invalidValue`` if the changeset does not fit the snapshots (never for
    ///   updates a controller emits).
    /// - Complexity: O(rows × stages).
    public func staged() throws -> [StagedStep] {
        guard let changeset else { return [] }
        let staged = try changeset.staged()
        func sections(_ snapshot: ResultsSnapshot<Object>) -> [(section: String, rows: [Object])] {
            snapshot.sections.map { (section: $0.name, rows: Array($0.objects)) }
        }
        let snapshots = try staged.snapshots(from: sections(previous), to: sections(snapshot))
        return zip(staged.stages, snapshots).map { stage, sections in
            StagedStep(stage: stage, sections: sections.map { (name: $0.section, objects: $0.rows) })
        }
    }
}
