extension StagedChangeset {
    /// How sections and rows of a checked changeset map between its old results and the stages.
    struct StageGeometry {
        /// For each old section, its index after the deletes stage, or -1 when deleted.
        var survivingIndex: [Int]
        /// For each old section, its new index, or -1 when deleted.
        var target: [Int]
        /// For each new section, its old index, or -1 when inserted.
        var source: [Int]
        /// Row deletes, sorted.
        var sortedDeletes: [RowPath]

        init(_ changeset: Changeset) {
            let oldCount = changeset.sectionCountsBefore.count
            let newCount = changeset.sectionCountsAfter.count
            let deleted = Set(changeset.sectionDeletes)
            target = [Int](repeating: -1, count: oldCount)
            source = [Int](repeating: -1, count: newCount)
            var taken = Set(changeset.sectionInserts)
            for move in changeset.sectionMoves {
                target[move.from] = move.to
                source[move.to] = move.from
                taken.insert(move.to)
            }
            // Sections that neither move nor go keep their order and fill the new indexes left free.
            var free = (0..<newCount).lazy.filter { !taken.contains($0) }.makeIterator()
            survivingIndex = [Int](repeating: -1, count: oldCount)
            var surviving = 0
            for section in 0..<oldCount where !deleted.contains(section) {
                survivingIndex[section] = surviving
                surviving += 1
                if target[section] < 0, let next = free.next() {
                    target[section] = next
                    source[next] = section
                }
            }
            sortedDeletes = changeset.rowDeletes.sorted()
        }

        /// The number of deleted rows before `path` in its section.
        func deletesBefore(_ path: RowPath) -> Int {
            lowerBound(path) - lowerBound(RowPath(section: path.section, row: 0))
        }

        private func lowerBound(_ path: RowPath) -> Int {
            var low = 0
            var high = sortedDeletes.count
            while low < high {
                let middle = (low + high) >> 1
                if sortedDeletes[middle] < path { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Each surviving old section's row count once its deleted rows are gone, in old order.
        func countsAfterDeletes(_ changeset: Changeset) -> [Int] {
            var counts: [Int] = []
            for (section, count) in changeset.sectionCountsBefore.enumerated() where survivingIndex[section] >= 0 {
                counts.append(count - deletesBefore(RowPath(section: section, row: count)))
            }
            return counts
        }
    }

    /// The non-empty stages of a checked changeset.
    static func stages(of changeset: Changeset) -> [Stage] {
        let geometry = StageGeometry(changeset)
        var stages: [Stage] = []
        let before = changeset.sectionCountsBefore
        let after = changeset.sectionCountsAfter

        let updated = (changeset.rowUpdates.map(\.from) + changeset.rowMoves.filter(\.isUpdated).map(\.from)).sorted()
        if !updated.isEmpty {
            let updates = updated.map { Changeset.RowUpdate(from: $0, to: $0) }
            stages.append(
                Stage(
                    kind: .updates,
                    changeset: Changeset(rowUpdates: updates, sectionCountsBefore: before, sectionCountsAfter: before)))
        }

        let afterDeletes = geometry.countsAfterDeletes(changeset)
        if !changeset.sectionDeletes.isEmpty || !changeset.rowDeletes.isEmpty {
            stages.append(
                Stage(
                    kind: .deletes,
                    changeset: Changeset(
                        sectionDeletes: changeset.sectionDeletes.sorted(), rowDeletes: geometry.sortedDeletes,
                        sectionCountsBefore: before, sectionCountsAfter: afterDeletes)))
        }

        let afterSections = (0..<after.count).map { section in
            let old = geometry.source[section]
            return old < 0 ? after[section] : afterDeletes[geometry.survivingIndex[old]]
        }
        if !changeset.sectionInserts.isEmpty || !changeset.sectionMoves.isEmpty {
            let moves = changeset.sectionMoves.map {
                Changeset.Move(from: geometry.survivingIndex[$0.from], to: $0.to)
            }
            stages.append(
                Stage(
                    kind: .sectionInsertsAndMoves,
                    changeset: Changeset(
                        sectionInserts: changeset.sectionInserts.sorted(), sectionMoves: moves,
                        sectionCountsBefore: afterDeletes, sectionCountsAfter: afterSections)))
        }

        if !changeset.rowInserts.isEmpty || !changeset.rowMoves.isEmpty {
            let moves = changeset.rowMoves.map { move in
                let from = RowPath(
                    section: geometry.target[move.from.section],
                    row: move.from.row - geometry.deletesBefore(move.from))
                return Changeset.RowMove(from: from, to: move.to)
            }
            stages.append(
                Stage(
                    kind: .rowInsertsAndMoves,
                    changeset: Changeset(
                        rowInserts: changeset.rowInserts.sorted(), rowMoves: moves,
                        sectionCountsBefore: afterSections, sectionCountsAfter: after)))
        }
        return stages
    }
}
