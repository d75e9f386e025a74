extension StagedChangeset {
    /// The sections and rows after each stage, given the results before and after the whole batch.
    ///
    /// The snapshot after the updates stage has the old layout with the updated rows' new content; after the
    /// deletes stage the deleted sections and rows are gone; after the section stage the sections are in their
    /// new order, inserted ones full, surviving ones still holding their remaining old rows; after the last
    /// stage it is `new`. One snapshot per stage, in order: feed each to the data source inside its stage's batch.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when `old` or `new` do not have the section and row counts
    ///   the changeset was computed for.
    /// - Complexity: O(rows × stages).
    public func snapshots<Section, Row>(
        from old: [(section: Section, rows: [Row])], to new: [(section: Section, rows: [Row])]
    ) throws -> [[(section: Section, rows: [Row])]] {
        try Self.checkCounts(old.map(\.rows.count), changeset.sectionCountsBefore, "old")
        try Self.checkCounts(new.map(\.rows.count), changeset.sectionCountsAfter, "new")
        let geometry = StageGeometry(changeset)

        var afterUpdates = old
        for update in changeset.rowUpdates {
            afterUpdates[update.from.section].rows[update.from.row] = new[update.to.section].rows[update.to.row]
        }
        for move in changeset.rowMoves where move.isUpdated {
            afterUpdates[move.from.section].rows[move.from.row] = new[move.to.section].rows[move.to.row]
        }

        var afterDeletes: [(section: Section, rows: [Row])] = []
        var nextDelete = 0
        let deletes = geometry.sortedDeletes
        for (section, entry) in afterUpdates.enumerated() where geometry.survivingIndex[section] >= 0 {
            var rows: [Row] = []
            rows.reserveCapacity(entry.rows.count)
            while nextDelete < deletes.count && deletes[nextDelete].section < section { nextDelete += 1 }
            for (index, row) in entry.rows.enumerated() {
                if nextDelete < deletes.count && deletes[nextDelete] == RowPath(section: section, row: index) {
                    nextDelete += 1
                } else {
                    rows.append(row)
                }
            }
            afterDeletes.append((section: entry.section, rows: rows))
        }

        let afterSections = new.indices.map { section in
            let source = geometry.source[section]
            guard source >= 0 else { return new[section] }
            return (section: new[section].section, rows: afterDeletes[geometry.survivingIndex[source]].rows)
        }

        return stages.map { stage in
            switch stage.kind {
            case .updates: afterUpdates
            case .deletes: afterDeletes
            case .sectionInsertsAndMoves: afterSections
            case .rowInsertsAndMoves: new
            }
        }
    }

    /// The keys after each stage, given the two sides the changeset was computed from.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when the sides do not have the section and row counts the
    ///   changeset was computed for.
    @_spi(Benchmarks) public func snapshots<Key>(from old: DiffSide<Key>, to new: DiffSide<Key>) throws -> [DiffSide<
        Key
    >] {
        let stages = try snapshots(
            from: old.sections.map { (section: $0.name, rows: $0.keys) },
            to: new.sections.map { (section: $0.name, rows: $0.keys) })
        return stages.map { sections in
            var keys: [Key] = []
            var starts: [Int] = []
            for section in sections {
                starts.append(keys.count)
                keys.append(contentsOf: section.rows)
            }
            return DiffSide(uncheckedKeys: keys, sectionNames: sections.map(\.section), sectionStarts: starts)
        }
    }

    private static func checkCounts(_ actual: [Int], _ expected: [Int], _ side: String) throws {
        guard actual == expected else {
            throw FetchKitError.invalidValue(
                "staged changeset: the \(side) results have section counts \(actual), the changeset \(expected)")
        }
    }
}
