extension ResultsController {
    /// Moves the row with primary key `key` to `destination` because a user dragged it there: as
    /// ``moveObject(from:to:)``, with both ends named by identity and resolved when the move runs.
    ///
    /// Use it when the user's view may be a step behind the controller — a browser fed over a network — so
    /// that rows another writer inserted or deleted meanwhile cannot shift the move onto another row.
    ///
    /// ```swift
    /// // The page dropped row 7 just above row 3, or at the end of the "Work" section.
    /// try await controller.moveObject(withKey: 7, to: .before(3))
    /// try await controller.moveObject(withKey: 7, to: .endOfSection("Work"))
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when `key`, the row named by `.before`, or the section
    ///   named by `.endOfSection` is not in the results; otherwise as ``moveObject(from:to:)``.
    /// - Complexity: As ``moveObject(from:to:)``; resolving the keys is O(log *n*).
    public func moveObject(withKey key: Value, to destination: MoveDestination) async throws {
        try await perform { .moveObject(.key(key, destination), $0) }
    }

    /// The paths of a move, resolved against the current results (on the controller's task).
    func resolve(_ target: MoveTarget) throws -> (from: RowPath, to: RowPath) {
        try resolve(target, in: state.withLock { $0.snapshot })
    }

    /// The paths of a move, resolved against `current`.
    func resolve(_ target: MoveTarget, in current: ResultsSnapshot<Object>) throws -> (from: RowPath, to: RowPath) {
        let (key, destination): (Value, MoveDestination)
        switch target {
        case .paths(let from, let to): return (from, to)
        case .key(let named, let place): (key, destination) = (named, place)
        }
        guard let from = current.rowPath(forKey: key) else {
            throw FetchKitError.invalidValue("no row with key \(key) to move: it is not in the results")
        }
        switch destination {
        case .before(let successor):
            if successor == key { return (from, from) }
            guard let next = current.rowPath(forKey: successor) else {
                throw FetchKitError.invalidValue(
                    "cannot move row \(key) before row \(successor): that row is not in the results")
            }
            // The destination is counted without the dragged row in its old place.
            let shift = next.section == from.section && next.row > from.row ? 1 : 0
            return (from, RowPath(section: next.section, row: next.row - shift))
        case .endOfSection(let name):
            guard let section = current.sectionNames.sectionIndex(of: name) else {
                throw FetchKitError.invalidValue(
                    "cannot move row \(key) to the end of section \(SafeText.quoted(name)): no such section")
            }
            let count = current.sectionRange(section).count
            return (from, RowPath(section: section, row: count - (section == from.section ? 1 : 0)))
        }
    }
}
