extension CompositeResultsController {
    /// The sections, in order, across every part.
    public var sections: [CompositeSection] {
        state.withLock { state in
            state.machine.applied.enumerated().flatMap { part, content in
                zip(content.names, content.counts).map { CompositeSection(name: $0, count: $1, part: part) }
            }
        }
    }

    /// The number of sections across every part.
    public var numberOfSections: Int { state.withLock { $0.machine.applied.reduce(0) { $0 + $1.names.count } } }

    /// The number of rows section `section` shows (0 when out of range).
    public func numberOfRows(inSection section: Int) -> Int {
        state.withLock { state in
            guard let (part, local) = Self.locate(section, in: state.machine.applied) else { return 0 }
            return state.machine.applied[part].counts[local]
        }
    }

    /// The object at global `path` when it belongs to `part`; `nil` otherwise.
    public func object<Object>(at path: RowPath, in part: ResultsPart<Object>) -> Object? {
        state.withLock { state in
            guard let (index, local) = Self.locate(path.section, in: state.machine.applied), index == part.index,
                let window = state.machine.applied[index].window as? ResultsSnapshot<Object>
            else { return nil }
            return window.object(at: RowPath(section: local, row: path.row))
        }
    }

    /// The fixed row at global `path` when it belongs to `part`; `nil` otherwise.
    public func row(at path: RowPath, in part: FixedPart) -> String? {
        state.withLock { state in
            guard let (index, _) = Self.locate(path.section, in: state.machine.applied), index == part.index else {
                return nil
            }
            let rows = state.machine.applied[index].fixedRows
            return rows.indices.contains(path.row) ? rows[path.row] : nil
        }
    }

    /// The row at global `path` of `parts`, or `nil` when out of range.
    static func row(at path: RowPath, in parts: [PartContent]) -> CompositeRow? {
        guard let (part, local) = locate(path.section, in: parts) else { return nil }
        return parts[part].row(at: RowPath(section: local, row: path.row), part: part)
    }

    /// Global section `section` of `parts` (which must hold it).
    static func section(_ section: Int, in parts: [PartContent]) -> CompositeSection {
        let (part, local) = locate(section, in: parts)!
        return CompositeSection(name: parts[part].names[local], count: parts[part].counts[local], part: part)
    }

    /// The part a global section belongs to, and the section's index within that part.
    static func locate(_ section: Int, in parts: [PartContent]) -> (part: Int, section: Int)? {
        guard section >= 0 else { return nil }
        var base = 0
        for (index, content) in parts.enumerated() {
            if section < base + content.names.count { return (index, section - base) }
            base += content.names.count
        }
        return nil
    }
}
